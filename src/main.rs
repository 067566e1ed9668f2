/// The allocator: `serve` allocates on one runtime thread and frees on the other, where
/// glibc's arenas take a lock each time (BENCHMARKS.md, "Listings answered again before
/// routing").
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    tronpool::cli::main()
}
