//! Every seed comparison with each of the Lab's mechanisms (`mech`, and the benchmarks' phase
//! barrier and warm-up) turned off in turn, and with overlapped loads turned on: what each one
//! moves, row by row (the change the model shows as a fraction of the seed's).
//!
//! `cargo run --release -p slub-lab-core --example mechanisms`

use slub_lab_core::{self as lab, Mechs};

fn main() {
    let settings: [(&str, Mechs); 8] = [
        ("all", Mechs::default()),
        (
            "no zone lock",
            Mechs {
                zone_lock: false,
                ..Mechs::default()
            },
        ),
        (
            "no kmalloc",
            Mechs {
                kmalloc: false,
                ..Mechs::default()
            },
        ),
        (
            "no store buffer",
            Mechs {
                store_buffer: false,
                ..Mechs::default()
            },
        ),
        (
            "with MLP",
            Mechs {
                mlp: true,
                ..Mechs::default()
            },
        ),
        (
            "no phase barrier",
            Mechs {
                barrier: false,
                ..Mechs::default()
            },
        ),
        (
            "no FIFO locks",
            Mechs {
                fifo_locks: false,
                ..Mechs::default()
            },
        ),
        (
            "no warm-up",
            Mechs {
                warmup: false,
                ..Mechs::default()
            },
        ),
    ];
    print!("{:5}", "seed");
    for (name, _) in &settings {
        print!(" {name:>22}");
    }
    println!();
    for case in lab::seed_cases() {
        print!("{:5}", case.id);
        for (_, mechs) in &settings {
            match lab::run_seed_with(case, *mechs) {
                Ok(r) => print!(
                    " {:>9.1} → {:>7.1} {:>4.2}",
                    r.before.model, r.after.model, r.change_fraction
                ),
                Err(e) => print!(" {e}"),
            }
        }
        println!();
    }
}
