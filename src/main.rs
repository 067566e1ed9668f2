fn main() -> std::process::ExitCode {
    tronpool::cli::main()
}
