//! Threads, channels, locks, std collections, trait objects, panics caught with catch_unwind,
//! thread-locals, formatting and file I/O: a little of everything std links in. The output is
//! deterministic (hash maps are printed sorted).

use std::any::Any;
use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet, BinaryHeap, HashMap, HashSet, VecDeque};
use std::fmt::Write as _;
use std::io::{Read, Write};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{mpsc, Arc, Condvar, Mutex, OnceLock, RwLock};
use std::thread;

static STARTED: AtomicUsize = AtomicUsize::new(0);
static CONFIG: OnceLock<String> = OnceLock::new();

thread_local! {
    static LOG: RefCell<Vec<String>> = const { RefCell::new(Vec::new()) };
}

trait Shape: Send + Sync {
    fn area(&self) -> f64;
    fn name(&self) -> String;
}

struct Circle(f64);
struct Rect(f64, f64);

impl Shape for Circle {
    fn area(&self) -> f64 {
        3.0 * self.0 * self.0
    }
    fn name(&self) -> String {
        format!("circle r={}", self.0)
    }
}

impl Shape for Rect {
    fn area(&self) -> f64 {
        self.0 * self.1
    }
    fn name(&self) -> String {
        format!("rect {}x{}", self.0, self.1)
    }
}

fn word_counts(text: &str) -> HashMap<String, usize> {
    let mut m = HashMap::new();
    for w in text.split_whitespace() {
        *m.entry(w.to_lowercase()).or_insert(0) += 1;
    }
    m
}

fn threads() -> Vec<String> {
    let mut out = Vec::new();
    // Workers summing ranges, results through a channel.
    let (tx, rx) = mpsc::channel();
    let handles: Vec<_> = (0..4u64)
        .map(|i| {
            let tx = tx.clone();
            thread::Builder::new()
                .name(format!("worker-{i}"))
                .spawn(move || {
                    STARTED.fetch_add(1, Ordering::SeqCst);
                    let sum: u64 = (i * 1000..(i + 1) * 1000).sum();
                    LOG.with(|l| l.borrow_mut().push(format!("worker {i}")));
                    let n = LOG.with(|l| l.borrow().len());
                    tx.send((i, sum, n, thread::current().name().map(String::from)))
                        .unwrap();
                })
                .unwrap()
        })
        .collect();
    drop(tx);
    for h in handles {
        h.join().unwrap();
    }
    let mut results: Vec<_> = rx.iter().collect();
    results.sort();
    for (i, sum, n, name) in results {
        out.push(format!("worker {i}: sum={sum} log entries={n} name={name:?}"));
    }

    // A shared counter behind a Mutex, a RwLock'ed map, and a Condvar handshake.
    let counter = Arc::new(Mutex::new(0u64));
    let map = Arc::new(RwLock::new(BTreeMap::new()));
    let hs = thread::scope(|s| {
        let hs: Vec<_> = (0..8u64)
            .map(|i| {
                let (counter, map) = (Arc::clone(&counter), Arc::clone(&map));
                s.spawn(move || {
                    for _ in 0..1000 {
                        *counter.lock().unwrap() += 1;
                    }
                    map.write().unwrap().insert(i, i * i);
                    i
                })
            })
            .collect();
        hs.into_iter().map(|h| h.join().unwrap()).sum::<u64>()
    });
    out.push(format!(
        "counter={} map={:?} ids={hs}",
        *counter.lock().unwrap(),
        map.read().unwrap()
    ));

    let pair = Arc::new((Mutex::new(false), Condvar::new()));
    let p2 = Arc::clone(&pair);
    let t = thread::spawn(move || {
        let (m, c) = &*p2;
        *m.lock().unwrap() = true;
        c.notify_one();
    });
    let (m, c) = &*pair;
    let mut ready = m.lock().unwrap();
    while !*ready {
        ready = c.wait(ready).unwrap();
    }
    drop(ready);
    t.join().unwrap();
    out.push(format!(
        "condvar handshake done, {} workers started",
        STARTED.load(Ordering::SeqCst)
    ));
    out
}

fn collections() -> Vec<String> {
    let mut out = Vec::new();
    let text = "the quick brown fox jumps over the lazy dog The Dog sleeps";
    let mut counts: Vec<_> = word_counts(text).into_iter().collect();
    counts.sort();
    out.push(format!("word counts: {counts:?}"));

    let set: HashSet<i32> = [5, 3, 9, 3, 1].into_iter().collect();
    let mut v: Vec<_> = set.into_iter().collect();
    v.sort_unstable();
    out.push(format!("hash set sorted: {v:?}"));

    let bset: BTreeSet<&str> = text.split(' ').collect();
    out.push(format!("btree set: {}", bset.iter().copied().collect::<Vec<_>>().join(",")));

    let mut heap = BinaryHeap::from(vec![4, 8, 1, 9, 2]);
    let mut popped = Vec::new();
    while let Some(x) = heap.pop() {
        popped.push(x);
    }
    out.push(format!("heap order: {popped:?}"));

    let mut dq: VecDeque<i32> = (1..=5).collect();
    dq.rotate_left(2);
    dq.push_front(0);
    out.push(format!("deque: {dq:?}"));

    let shapes: Vec<Box<dyn Shape>> = vec![Box::new(Circle(1.5)), Box::new(Rect(2.0, 3.5))];
    let mut s = String::new();
    for sh in &shapes {
        write!(s, "{} -> {:.3}; ", sh.name(), sh.area()).unwrap();
    }
    out.push(s);
    out.push(format!(
        "floats: {:e} {:.10} {} {}",
        1234.5678f64,
        std::f64::consts::PI,
        f32::MAX,
        0.1 + 0.2
    ));
    out
}

fn panics() -> Vec<String> {
    let mut out = Vec::new();
    std::panic::set_hook(Box::new(|_| {}));
    let r = std::panic::catch_unwind(|| {
        let v: Vec<i32> = Vec::new();
        v[3]
    });
    out.push(format!("index out of bounds caught: {}", describe(r.unwrap_err())));
    let r = std::panic::catch_unwind(|| -> u8 {
        let x: u8 = std::hint::black_box(200);
        x.checked_add(100).expect("overflow detected")
    });
    out.push(format!("expect caught: {}", describe(r.unwrap_err())));
    let h = thread::spawn(|| panic!("panic in a thread: {}", 42));
    out.push(format!(
        "thread panic joined: {}",
        describe(h.join().unwrap_err())
    ));
    let _ = std::panic::take_hook();
    out
}

fn describe(e: Box<dyn Any + Send>) -> String {
    if let Some(s) = e.downcast_ref::<&str>() {
        s.to_string()
    } else if let Some(s) = e.downcast_ref::<String>() {
        s.clone()
    } else {
        "<other>".to_string()
    }
}

fn files() -> std::io::Result<String> {
    let path = std::env::temp_dir().join(format!("weld-rust-bin-{}.txt", std::process::id()));
    {
        let mut f = std::fs::File::create(&path)?;
        for i in 0..3 {
            writeln!(f, "line {i}")?;
        }
    }
    let mut s = String::new();
    std::fs::File::open(&path)?.read_to_string(&mut s)?;
    std::fs::remove_file(&path)?;
    Ok(s.replace('\n', "|"))
}

fn main() {
    CONFIG.get_or_init(|| "configured".to_string());
    let args: Vec<String> = std::env::args().skip(1).collect();
    println!("args: {args:?}, config: {}", CONFIG.get().unwrap());
    for line in threads() {
        println!("{line}");
    }
    for line in collections() {
        println!("{line}");
    }
    for line in panics() {
        println!("{line}");
    }
    println!("file round trip: {}", files().expect("file I/O"));
    let code = if STARTED.load(Ordering::SeqCst) == 4 { 0 } else { 1 };
    std::process::exit(code);
}
