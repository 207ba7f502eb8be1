//! A binary compiled to bitcode with `-C linker-plugin-lto`, using the `shapes` rlib (bitcode);
//! std stays native. Linked through clang-22 with ThinLTO.
use shapes::{checked_div, largest, total, Circle, Rect, Shape};
use std::collections::BTreeMap;

fn main() {
    std::panic::set_hook(Box::new(|_| {}));
    let v: Vec<Box<dyn Shape>> = vec![
        Box::new(Rect { w: 2.0, h: 3.0 }),
        Box::new(Circle { r: 1.5 }),
        Box::new(Rect { w: 0.5, h: 8.0 }),
    ];
    for s in &v {
        println!("{} -> {}", s.name(), s.area());
    }
    println!("total {}", total(&v));
    println!("largest {:?} {:?}", largest(&[3, 9, 2]), largest::<u8>(&[]));
    let mut words: BTreeMap<String, usize> = BTreeMap::new();
    for w in "the cat and the hat and the bat".split(' ') {
        *words.entry(w.to_string()).or_default() += 1;
    }
    println!("{words:?}");
    let r = std::panic::catch_unwind(|| checked_div(10, std::env::args().count() as i64 - 1));
    match r {
        Ok(v) => println!("no panic: {v}"),
        Err(e) => println!("caught panic: {}", e.downcast_ref::<String>().unwrap()),
    }
    println!("{}", checked_div(84, 2));
}
