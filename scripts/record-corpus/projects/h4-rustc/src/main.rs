use std::collections::HashMap;

fn count(words: &[&str]) -> HashMap<String, usize> {
    let mut m = HashMap::new();
    for w in words {
        *m.entry(w).or_insert(0) += 1;
    }
    m
}

fn main() {
    let counts = count(&["a", "b"]);
    let n: i32 = counts.len();
    println!("{}", n + missing);
}
