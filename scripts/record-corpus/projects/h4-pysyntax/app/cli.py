def main(argv):
    match argv:
        case [cmd, *rest]:
            print(f"running {cmd} with {rest!r")
        case _:
            print("usage")
