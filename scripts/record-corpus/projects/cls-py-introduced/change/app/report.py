from textkit import shout


def title(name):
    return shout(name)
