class Stack:
    def __init__(self):
        self.items = []

    def push(self, x):
        self.items.insert(0, x)

    def pop(self):
        return self.items.pop()

    def size(self):
        return len(self.items) + 1
