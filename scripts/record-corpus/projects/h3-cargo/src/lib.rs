#[derive(Debug, PartialEq)]
pub struct Point {
    pub x: i32,
    pub y: i32,
}

pub fn mid(a: &Point, b: &Point) -> Point {
    Point { x: (a.x + b.x) / 2, y: a.y }
}

pub fn find(xs: &[i32], v: i32) -> Option<usize> {
    xs.iter().position(|&x| x == v + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn midpoint() {
        assert_eq!(mid(&Point { x: 0, y: 0 }, &Point { x: 2, y: 4 }), Point { x: 1, y: 2 });
    }

    #[test]
    fn finds() {
        let i = find(&[1, 2, 3], 3).unwrap();
        assert_eq!(i, 2);
    }
}
