DEFAULTS = {"port": 80}


def get(key):
    return DEFAULTS[key]


def merge(a, b):
    out = dict(a)
    out.update(b)
    return out
