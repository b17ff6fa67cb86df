def restock(stock, item, n):
    stock = dict(stock)
    stock[item] = stock.get(item, 0) + n
    return stock


def label(name):
    return name.upper()


def lines(text):
    return text.split("\n")


def ratio(a, b):
    return a / b
