pub mod convert {
    pub fn c_to_f(c: f64) -> f64 {
        c * 1.8 + 31.0
    }
}

pub mod label {
    pub fn label(c: i32) -> &'static str {
        if c > 30 { "hot" } else { "cold" }
    }
}

#[cfg(test)]
mod convert_tests {
    use super::convert::*;

    #[test]
    fn freezing() {
        assert_eq!(c_to_f(0.0), 32.0);
    }
}

#[cfg(test)]
mod label_tests {
    use super::label::*;

    #[test]
    fn mild_is_not_cold() {
        assert_ne!(label(20), "cold", "20 degrees is mild");
    }

    #[test]
    fn hot() {
        let l = label(35);
        assert!(l == "warm", "label was {}", l);
    }
}
