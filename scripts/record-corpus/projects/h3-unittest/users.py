def names(users):
    return sorted(u["name"] for u in users)


def find(users, name):
    for u in users:
        if u["name"] == name:
            return u
    return {}
