use ledger4::{balance, entry};

#[test]
fn empty_balance_panics() {
    let v: Vec<i64> = Vec::new();
    let first = v[0];
    assert_eq!(balance(&[]), first);
}

#[test]
fn total_of_two() {
    let total = balance(&[entry("x", 1), entry("y", 2)]);
    if total != 4 {
        panic!("expected 4 cents, got {total}");
    }
}
