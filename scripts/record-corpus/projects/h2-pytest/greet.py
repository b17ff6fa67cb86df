def greeting(name, lang="en"):
    if lang == "fr":
        return f"Bonjour {name}!"
    return f"Hello {name}."


def lines(n):
    return "\n".join(f"line {i}" for i in range(n))
