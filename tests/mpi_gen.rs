//! `mpirun -np P giuthi tb gen --mpi` (cargo feature `mpi`) on loopback: every layer file
//! equals, past its 64-byte header, the one a single process writes, for 1 to 4 ranks;
//! a job stopped after any sweep count resumes, also with another rank count or as one
//! process; a job whose rank is killed (`kill -9`) resumes from its checkpoint.
//!
//! Needs `mpirun` (Debian: `apt-get install openmpi-bin libopenmpi-dev libclang-dev`).
//! Without it the tests say they were skipped, except under `CI=true`, where that fails.
#![cfg(feature = "mpi")]

use std::path::Path;
use std::process::{Command, Output};

/// Whether `mpirun` runs here; panics under CI when it does not.
fn have_mpirun() -> bool {
    let ok = Command::new("mpirun")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        if std::env::var("CI").as_deref() == Ok("true") {
            panic!("mpirun is missing (CI=true): apt-get install openmpi-bin libopenmpi-dev");
        }
        eprintln!("skipped: mpirun is not installed");
    }
    ok
}

fn mpirun(np: usize, args: &[&str]) -> Output {
    Command::new("mpirun")
        .args(["--oversubscribe", "--allow-run-as-root", "-np"])
        .arg(np.to_string())
        .arg(env!("CARGO_BIN_EXE_giuthi"))
        .args(["tb", "gen", "--mpi", "--quiet", "--threads", "1"])
        .args(args)
        .env("OMPI_MCA_rmaps_base_oversubscribe", "1")
        .output()
        .expect("mpirun runs")
}

fn single(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_giuthi"))
        .args(["tb", "gen", "--quiet", "--threads", "1"])
        .args(args)
        .output()
        .expect("the binary runs")
}

/// The files of a table folder, less its generation lock (`giuthi.lock`, kept empty).
fn table_files(dir: &Path) -> impl Iterator<Item = std::path::PathBuf> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.file_name().is_some_and(|n| n != "giuthi.lock"))
}

/// Every `.tb` of `a` equals that of `b` past the header; nothing else is in `b`.
fn same_layers(a: &Path, b: &Path) -> usize {
    let mut n = 0;
    for p in table_files(a) {
        let name = p.file_name().unwrap();
        let x = std::fs::read(&p).unwrap();
        let y = std::fs::read(b.join(name)).unwrap_or_else(|_| panic!("{name:?} in {b:?}"));
        assert_eq!(x.len(), y.len(), "{name:?}");
        assert!(x[64..] == y[64..], "{name:?} differs past its header");
        n += 1;
    }
    let extra: Vec<_> = table_files(b)
        .filter(|p| !a.join(p.file_name().unwrap()).exists())
        .collect();
    assert!(
        extra.is_empty(),
        "files in {b:?} that one process did not write: {extra:?}"
    );
    n
}

fn args<'a>(out: &'a str, rest: &[&'a str]) -> Vec<&'a str> {
    let mut v = rest.to_vec();
    v.extend_from_slice(&["--out", out]);
    v
}

/// 1 to 4 ranks write the layers of one process: Giuthi 2x3, 2x4, 2x5 (default and
/// `chain=one,origin=skip`) and Kalah 2x4.
#[test]
fn mpi_layers_equal_one_process() {
    if !have_mpirun() {
        return;
    }
    let cases: [&[&str]; 5] = [
        &["--pits", "3", "--max-seeds", "12"],
        &["--pits", "4", "--max-seeds", "11"],
        &["--pits", "5", "--max-seeds", "11"],
        &[
            "--pits",
            "5",
            "--max-seeds",
            "10",
            "--variant",
            "chain=one,origin=skip",
        ],
        &["--game", "kalah", "--pits", "4", "--max-seeds", "11"],
    ];
    for case in cases {
        let one = tempfile::tempdir().unwrap();
        let o = single(&args(one.path().to_str().unwrap(), case));
        assert!(o.status.success(), "{o:?}");
        for np in 1..=4 {
            let dir = tempfile::tempdir().unwrap();
            let o = mpirun(np, &args(dir.path().to_str().unwrap(), case));
            assert!(o.status.success(), "{case:?} -np {np}: {o:?}");
            assert!(same_layers(one.path(), dir.path()) > 10);
        }
    }
}

/// The `changed` figures of every layer of one `tb gen --json` object on stdout, summed.
fn changed_total(o: &Output) -> u64 {
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("one JSON object");
    v["layers"]
        .as_array()
        .expect("a layers array")
        .iter()
        .map(|l| l["changed"].as_u64().expect("a changed figure"))
        .sum()
}

/// An exchange split into many rounds (a rank sends at most 1, 7 or 1000 changed
/// entries a round; by default 2^26 / P) writes the same layers: the batching bounds the
/// memory of a sweep's exchange and changes nothing else. Also checks that the `changed`
/// figure of `--json` counts the same entry changes with every batch.
#[test]
fn mpi_exchange_in_small_batches_equals_one_process() {
    if !have_mpirun() {
        return;
    }
    let case = ["--pits", "4", "--max-seeds", "9"];
    let one = tempfile::tempdir().unwrap();
    assert!(single(&args(one.path().to_str().unwrap(), &case))
        .status
        .success());
    let mut changed = Vec::new();
    for (np, batch) in [(3, "1"), (2, "7"), (4, "1000")] {
        let dir = tempfile::tempdir().unwrap();
        let mut a = args(dir.path().to_str().unwrap(), &case);
        a.extend_from_slice(&["--mpi-batch", batch, "--json"]);
        let o = mpirun(np, &a);
        assert!(o.status.success(), "-np {np} --mpi-batch {batch}: {o:?}");
        assert!(same_layers(one.path(), dir.path()) > 8);
        let total = changed_total(&o);
        assert!(total > 0);
        changed.push((np, total));
    }
    // The same rank count with another batch: the same sweeps, the same changes.
    let dir = tempfile::tempdir().unwrap();
    let mut a = args(dir.path().to_str().unwrap(), &case);
    a.extend_from_slice(&["--json"]);
    let o = mpirun(3, &a);
    assert!(o.status.success(), "{o:?}");
    let total = changed_total(&o);
    assert_eq!(
        total, changed[0].1,
        "3 ranks: default batch against a batch of 1"
    );
}

/// A job stopped after k sweeps of a layer (k = 0 .. its sweeps) saves it; the same
/// command with 3 ranks, 2 ranks or one process finishes it to the same entries.
#[test]
fn mpi_stop_and_resume_after_each_sweep_count() {
    if !have_mpirun() {
        return;
    }
    let case = ["--pits", "4", "--max-seeds", "9"];
    let one = tempfile::tempdir().unwrap();
    assert!(single(&args(one.path().to_str().unwrap(), &case))
        .status
        .success());
    for k in 0..6u32 {
        for resume_np in [3usize, 2, 0] {
            let dir = tempfile::tempdir().unwrap();
            let d = dir.path().to_str().unwrap();
            let ks = k.to_string();
            let mut stop = args(d, &case);
            stop.extend_from_slice(&["--stop-after-sweeps", &ks]);
            let o = mpirun(2, &stop);
            assert!(o.status.code() == Some(130) || o.status.success(), "{o:?}");
            let o = if resume_np == 0 {
                single(&args(d, &case))
            } else {
                mpirun(resume_np, &args(d, &case))
            };
            assert!(o.status.success(), "resumed with {resume_np} ranks: {o:?}");
            same_layers(one.path(), dir.path());
        }
    }
}

/// A rank killed with SIGKILL ends the job; the same command then resumes from the
/// checkpoint (`--checkpoint-every 0`: after every sweep) to the same layers.
#[test]
fn mpi_killed_rank_then_rerun() {
    if !have_mpirun() {
        return;
    }
    let case = ["--pits", "5", "--max-seeds", "15"];
    let one = tempfile::tempdir().unwrap();
    assert!(single(&args(one.path().to_str().unwrap(), &case))
        .status
        .success());
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap().to_string();
    let mut a = args(&d, &case);
    a.extend_from_slice(&["--checkpoint-every", "0"]);
    let mut job = Command::new("mpirun")
        .args(["--oversubscribe", "--allow-run-as-root", "-np", "3"])
        .arg(env!("CARGO_BIN_EXE_giuthi"))
        .args(["tb", "gen", "--mpi", "--quiet", "--threads", "1"])
        .args(&a)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // Wait for a checkpoint of some layer, then kill one rank (not mpirun).
    let partial = (0..3000).find_map(|_| {
        std::thread::sleep(std::time::Duration::from_millis(20));
        std::fs::read_dir(dir.path()).ok()?.find_map(|e| {
            let p = e.ok()?.path();
            (p.extension()? == "partial").then_some(p)
        })
    });
    let killed = if partial.is_some() {
        let out = Command::new("pgrep")
            .arg("-f")
            .arg(format!(
                "^{} tb gen --mpi .*--out {d}",
                env!("CARGO_BIN_EXE_giuthi")
            ))
            .output()
            .unwrap();
        let pids = String::from_utf8_lossy(&out.stdout).to_string();
        let pid = pids.lines().next().map(str::to_string);
        if let Some(pid) = &pid {
            let _ = Command::new("kill").args(["-9", pid]).status();
        }
        pid.is_some()
    } else {
        false
    };
    let status = job.wait().unwrap();
    if killed {
        assert!(!status.success(), "the job ends when a rank is killed");
    }
    let o = mpirun(2, &args(&d, &case));
    assert!(o.status.success(), "{o:?}");
    same_layers(one.path(), dir.path());
}
