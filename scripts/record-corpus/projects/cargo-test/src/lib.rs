pub fn add(a: i32, b: i32) -> i32 {
    a + b + 1
}

pub fn parse_list(s: &str) -> Vec<String> {
    s.split(',').map(|x| x.to_string()).collect()
}

pub fn first(xs: &[i32]) -> i32 {
    xs[0]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adds_numbers() {
        assert_eq!(add(2, 3), 5);
    }

    #[test]
    fn parses_list() {
        assert_eq!(parse_list("a, b"), vec!["a", "b"], "list of {}", "a, b");
    }

    #[test]
    fn first_of_empty() {
        assert_eq!(first(&[]), 0);
    }

    #[test]
    fn checks_positive() {
        assert!(add(-5, 1) > 0, "sum must be positive");
    }

    #[test]
    fn passes() {
        assert_eq!(add(0, 0), 1);
    }
}
