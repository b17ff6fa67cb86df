#[derive(Debug, PartialEq)]
pub struct Entry {
    pub memo: String,
    pub cents: i64,
}

pub fn entry(memo: &str, cents: i64) -> Entry {
    Entry { memo: memo.trim_end().to_string(), cents: cents.abs() }
}

pub fn balance(entries: &[Entry]) -> i64 {
    entries.iter().map(|e| e.cents).sum()
}

pub fn lines(memo: &str) -> Vec<&str> {
    memo.lines().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_sign() {
        assert_eq!(entry("rent", -500), Entry { memo: "rent".into(), cents: -500 }, "refunds stay negative");
    }

    #[test]
    fn splits_memo_lines() {
        assert_eq!(lines("café\nthé"), vec!["café", "thé", "chocolat"]);
    }

    #[test]
    fn never_overdrawn() {
        let b = balance(&[entry("a", 5), entry("b", -9)]);
        assert!(b >= 20, "balance {} is too low", b);
    }
}
