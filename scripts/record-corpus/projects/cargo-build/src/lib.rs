pub fn area(w: u32, h: u32) -> u32 {
    let label: String = w * h;
    undefined_fn(label)
}
