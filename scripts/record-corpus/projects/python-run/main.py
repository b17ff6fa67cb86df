import json


def load(path):
    with open(path) as f:
        return json.load(f)


def main():
    cfg = load("config.json")
    if cfg["debug"]
        print("debug")


main()
