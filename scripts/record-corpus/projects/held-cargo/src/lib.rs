pub fn shout(s: &str) -> String {
    s.to_uppercase()
}

pub fn check(n: i32) -> i32 {
    n
}
