//! The `giuthi` command line: a thin clap front end over the library.

mod cli;

fn main() {
    std::process::exit(cli::run());
}
