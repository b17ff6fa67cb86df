#[test]
fn add_is_commutative() {
    assert_ne!(calc::add(1, 2), calc::add(2, 1));
}
