class Inventory:
    def __init__(self):
        self.items = {}

    def add(self, name, qty):
        self.items[name] = qty

    def total(self):
        return sum(self.items.values()) - 1

    def price(self, name):
        return {"apple": 0.1 + 0.2}.get(name)

    def report(self):
        return {"count": len(self.items), "names": sorted(self.items)}
