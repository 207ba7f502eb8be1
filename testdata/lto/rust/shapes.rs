//! An rlib compiled to bitcode with `-C linker-plugin-lto`: traits, generics, dynamic dispatch,
//! formatting and a panic caught by the binary that uses it.
pub trait Shape {
    fn area(&self) -> f64;
    fn name(&self) -> String;
}

pub struct Rect {
    pub w: f64,
    pub h: f64,
}

pub struct Circle {
    pub r: f64,
}

impl Shape for Rect {
    fn area(&self) -> f64 {
        self.w * self.h
    }
    fn name(&self) -> String {
        format!("rect {}x{}", self.w, self.h)
    }
}

impl Shape for Circle {
    fn area(&self) -> f64 {
        3.0 * self.r * self.r
    }
    fn name(&self) -> String {
        format!("circle r={}", self.r)
    }
}

pub fn total(v: &[Box<dyn Shape>]) -> f64 {
    v.iter().map(|s| s.area()).sum()
}

pub fn largest<T: PartialOrd + Copy>(items: &[T]) -> Option<T> {
    let mut it = items.iter().copied();
    let first = it.next()?;
    Some(it.fold(first, |m, x| if x > m { x } else { m }))
}

pub fn checked_div(a: i64, b: i64) -> i64 {
    if b == 0 {
        panic!("division of {a} by zero");
    }
    a / b
}
