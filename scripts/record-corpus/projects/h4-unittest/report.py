def render(rows):
    return "\n".join(f"{k}: {v}" for k, v in rows)


def parse_money(s):
    return int(s.replace("€", ""))


def totals(rows):
    return {k: sum(v) for k, v in rows.items()}
