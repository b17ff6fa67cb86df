def slug(s):
    return s.lower().replace(" ", "_")


def words(s):
    return s.split()
