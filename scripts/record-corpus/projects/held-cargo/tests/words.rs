use words::{check, shout};

#[test]
fn shouts() {
    assert_eq!(shout("hi"), "HI!");
}

#[test]
#[should_panic(expected = "negative")]
fn rejects_negative() {
    check(-1);
}

#[test]
fn not_empty() {
    let s = shout("");
    assert!(!s.is_empty(), "shout of {:?} is empty", s);
}
