def title(name):
    return name.upper()
