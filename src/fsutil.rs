//! Files written whole or not at all, and what a killed writer leaves behind.
//!
//! Every file the tool writes (a checkpoint, a tablebase layer, a plot) is written to a
//! temporary name beside it, `FILE.tmp.<pid>` with the writer's process id, synced and
//! renamed over `FILE`, so a reader never sees half a file and two processes never write
//! into one temporary. A process killed while writing (`kill -9`, a crash, a power cut)
//! leaves its temporary behind; the next writer of `FILE` removes the temporaries of
//! processes that are no longer running ([`remove_stale_temps`]), and `tb gen` does the
//! same for its whole folder while it holds the folder's lock ([`DirLock`]). A checkpoint is
//! locked against a second run for as long as its run lasts ([`FileLock`]).
//!
//! A temporary whose process id belongs to a running process is never touched: it may be
//! another run writing at this moment (or an unrelated process that reused the id, in
//! which case the file stays until that process ends).
//!
//! # Examples
//!
//! ```
//! use giuthi::fsutil::{remove_stale_temps, temp_path, write_atomic};
//! let dir = std::env::temp_dir().join(format!("giuthi-fsutil-doc-{}", std::process::id()));
//! std::fs::create_dir_all(&dir)?;
//! let file = dir.join("out.svg");
//! // A temporary of a process that is gone (pid 0x7fff_fff0 is beyond any pid_max).
//! let stale = dir.join("out.svg.tmp.2147483632");
//! std::fs::write(&stale, b"half a file")?;
//! assert_eq!(remove_stale_temps(&file), vec![stale.clone()]);
//! assert!(!stale.exists());
//! write_atomic(&file, b"<svg/>")?;
//! assert_eq!(std::fs::read(&file)?, b"<svg/>");
//! assert!(!temp_path(&file).exists());
//! # std::fs::remove_dir_all(&dir)?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};

/// The temporary name `FILE.tmp.<pid>` under which this process writes `path` before
/// renaming it into place.
pub fn temp_path(path: &Path) -> PathBuf {
    let mut s = path.as_os_str().to_owned();
    s.push(format!(".tmp.{}", std::process::id()));
    PathBuf::from(s)
}

/// Whether a process with id `pid` is running (or may be: where this cannot be told, the
/// answer is `true`, so that nothing of a live process is removed).
#[cfg(unix)]
#[allow(unsafe_code)]
pub fn pid_is_alive(pid: u32) -> bool {
    if pid == std::process::id() {
        return true;
    }
    // 0 and negative ids address process groups in kill(2): never a single writer.
    let Ok(id) = libc::pid_t::try_from(pid) else {
        return false;
    };
    if id <= 0 {
        return false;
    }
    // SAFETY: kill with signal 0 sends nothing; it only checks that the process exists
    // and may be signalled. It touches no memory of this process.
    let r = unsafe { libc::kill(id, 0) };
    if r == 0 {
        return true;
    }
    // EPERM: the process exists but belongs to another user.
    std::io::Error::last_os_error().raw_os_error() != Some(libc::ESRCH)
}

/// Whether a process with id `pid` is running; on systems where this cannot be asked,
/// always `true` (nothing is removed).
#[cfg(not(unix))]
pub fn pid_is_alive(_pid: u32) -> bool {
    true
}

/// The process id of a temporary name `NAME.tmp.<pid>`, and `NAME`.
fn parse_temp_name(name: &str) -> Option<(&str, u32)> {
    let (base, pid) = name.rsplit_once(".tmp.")?;
    if base.is_empty() || pid.is_empty() || !pid.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some((base, pid.parse().ok()?))
}

/// Removes the temporaries `NAME.tmp.<pid>` in `dir` whose `NAME` passes `keep_name` and
/// whose process is not running; returns the files removed. Errors (an unreadable folder,
/// a file that cannot be removed) are ignored: the cleanup is best effort and never stops
/// the work that asked for it.
pub fn remove_stale_temps_in(dir: &Path, keep_name: impl Fn(&str) -> bool) -> Vec<PathBuf> {
    let mut removed = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return removed;
    };
    let mut found: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
        .filter_map(|e| {
            let name = e.file_name().into_string().ok()?;
            let (base, pid) = parse_temp_name(&name)?;
            (keep_name(base) && !pid_is_alive(pid)).then(|| e.path())
        })
        .collect();
    found.sort();
    for p in found {
        if std::fs::remove_file(&p).is_ok() {
            removed.push(p);
        }
    }
    removed
}

/// Removes the temporaries `FILE.tmp.<pid>` of `path` left by processes that are no
/// longer running; returns the files removed (best effort, as
/// [`remove_stale_temps_in`]).
pub fn remove_stale_temps(path: &Path) -> Vec<PathBuf> {
    let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
        return Vec::new();
    };
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    remove_stale_temps_in(dir, |base| base == name)
}

/// Writes `bytes` to `path` whole or not at all: removes the stale temporaries of `path`,
/// writes [`temp_path`], syncs it and renames it over `path`.
///
/// # Errors
///
/// The I/O error, with the temporary removed and a file already at `path` left as it was.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    remove_stale_temps(path);
    let tmp = temp_path(path);
    let write = || -> std::io::Result<()> {
        let mut f = File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()
    };
    if let Err(e) = write().and_then(|()| std::fs::rename(&tmp, path)) {
        let _ = std::fs::remove_file(&tmp);
        return Err(e);
    }
    Ok(())
}

/// Takes an exclusive `flock` on `file` without waiting: `Ok(false)` when another open
/// file (of this or another process) holds it. (`File::try_lock` does the same from Rust
/// 1.89; the crate's minimum is older.)
#[cfg(unix)]
#[allow(unsafe_code)]
fn try_lock_exclusive(file: &File) -> std::io::Result<bool> {
    use std::os::fd::AsRawFd;
    // SAFETY: flock on a file descriptor this `File` owns and keeps open for the call; it
    // reads and writes no memory of this process. The lock lives as long as the
    // descriptor and is released by the kernel when it is closed or the process ends.
    let r = unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) };
    if r == 0 {
        return Ok(true);
    }
    let e = std::io::Error::last_os_error();
    if e.raw_os_error() == Some(libc::EWOULDBLOCK) {
        Ok(false)
    } else {
        Err(e)
    }
}

/// Where `flock` is not available no lock is taken (the lock always succeeds).
#[cfg(not(unix))]
fn try_lock_exclusive(_file: &File) -> std::io::Result<bool> {
    Ok(true)
}

/// The name of the lock file older builds took in a folder (`giuthi.lock`); [`DirLock`]
/// now locks the folder itself and removes such a file when nobody holds it.
pub const LOCK_FILE: &str = "giuthi.lock";

/// An exclusive lock on a folder, held while the value lives: the operating system's file
/// lock (`flock` on Unix; none elsewhere) on the folder itself, opened read-only, so
/// nothing is left in the folder and the lock is released when the process ends in any
/// way, `kill -9` included.
#[derive(Debug)]
pub struct DirLock {
    _dir: File,
    path: PathBuf,
}

/// Why [`DirLock::try_new`] or [`FileLock::try_new`] did not lock.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum LockError {
    /// Another process holds the lock.
    #[error("{}: locked by another process", path.display())]
    Busy {
        /// The locked folder or file.
        path: PathBuf,
    },
    /// `FILE.lock` exists and is not a lock file of this tool (ours are always empty):
    /// a file of the user's, never taken, written or removed.
    #[error(
        "{}: exists and is not a giuthi lock file (it is not an empty file); move it away \
         or name another file",
        path.display()
    )]
    Foreign {
        /// The file in the lock file's place.
        path: PathBuf,
    },
    /// The folder or lock file could not be opened or locked.
    #[error("{}: {source}", path.display())]
    Io {
        /// The folder or lock file.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
}

impl DirLock {
    /// Takes the lock of `dir` without waiting. A `giuthi.lock` ([`LOCK_FILE`]) left by an
    /// older build is removed when no process holds it.
    ///
    /// # Errors
    ///
    /// [`LockError::Busy`] when another process holds it; [`LockError::Io`] when the
    /// folder cannot be opened or locked.
    pub fn try_new(dir: &Path) -> Result<DirLock, LockError> {
        let path = dir.to_path_buf();
        let io = |source| LockError::Io {
            path: path.clone(),
            source,
        };
        let file = File::open(dir).map_err(io)?;
        match try_lock_exclusive(&file) {
            Ok(true) => {}
            Ok(false) => return Err(LockError::Busy { path }),
            Err(e) => return Err(io(e)),
        }
        // The lock file of an older build: an old generation still running holds it.
        let old = dir.join(LOCK_FILE);
        if let Ok(f) = File::open(&old) {
            if matches!(try_lock_exclusive(&f), Ok(true))
                && f.metadata().is_ok_and(|m| m.is_file() && m.len() == 0)
            {
                let _ = std::fs::remove_file(&old);
            }
        }
        Ok(DirLock { _dir: file, path })
    }

    /// The locked folder.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

/// An exclusive lock on a file the tool rewrites by renaming (a checkpoint), held while
/// the value lives: the operating system's file lock (`flock` on Unix; none elsewhere) on
/// a lock file beside it, `FILE.lock`, which is removed when the value is dropped.
///
/// A rename replaces the file's inode, so the lock cannot be on `FILE` itself. The lock
/// file is unlinked while still locked, and a process that locked an inode no longer at
/// `FILE.lock` (it opened the file just before its holder removed it) opens the new one
/// and tries again, so two processes never both hold the lock. A run that dies leaves
/// `FILE.lock` behind unlocked: the next run takes it (and removes it when done).
///
/// # Examples
///
/// ```
/// use giuthi::fsutil::{FileLock, LockError};
/// let dir = std::env::temp_dir().join(format!("giuthi-filelock-doc-{}", std::process::id()));
/// std::fs::create_dir_all(&dir)?;
/// let ck = dir.join("ck.bin");
/// let held = FileLock::try_new(&ck)?;
/// assert!(matches!(FileLock::try_new(&ck), Err(LockError::Busy { .. })));
/// drop(held);
/// assert!(!dir.join("ck.bin.lock").exists());
/// let _again = FileLock::try_new(&ck)?;
/// # drop(_again);
/// # std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct FileLock {
    file: Option<File>,
    path: PathBuf,
}

impl FileLock {
    /// Takes the lock of `path` (on `path.lock`) without waiting.
    ///
    /// # Errors
    ///
    /// [`LockError::Busy`] naming the lock file when another process holds it;
    /// [`LockError::Foreign`] when `path.lock` is something else than an empty file (a
    /// file of the user's: the lock file would remove it when done);
    /// [`LockError::Io`] when the lock file cannot be created or locked.
    pub fn try_new(path: &Path) -> Result<FileLock, LockError> {
        let mut s = path.as_os_str().to_owned();
        s.push(".lock");
        let lock = PathBuf::from(s);
        if let Ok(meta) = std::fs::symlink_metadata(&lock) {
            if !meta.file_type().is_file() || meta.len() > 0 {
                return Err(LockError::Foreign { path: lock });
            }
        }
        let io = |source| LockError::Io {
            path: lock.clone(),
            source,
        };
        loop {
            let file = std::fs::OpenOptions::new()
                .create(true)
                .truncate(false)
                .write(true)
                .open(&lock)
                .map_err(io)?;
            match try_lock_exclusive(&file) {
                Ok(true) => {}
                Ok(false) => return Err(LockError::Busy { path: lock }),
                Err(e) => return Err(io(e)),
            }
            if same_file(&file, &lock) {
                return Ok(FileLock {
                    file: Some(file),
                    path: lock,
                });
            }
            // Its holder removed it between our open and our lock: take the new one.
        }
    }

    /// The lock file (`FILE.lock`).
    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for FileLock {
    fn drop(&mut self) {
        // Unlinked while locked, then unlocked by closing (see the type's docs).
        let _ = std::fs::remove_file(&self.path);
        drop(self.file.take());
    }
}

/// Whether `path` still names the open `file` (same device and inode).
#[cfg(unix)]
fn same_file(file: &File, path: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    match (file.metadata(), std::fs::metadata(path)) {
        (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
        _ => false,
    }
}

/// Where inodes cannot be compared the lock file is taken as it is.
#[cfg(not(unix))]
fn same_file(_file: &File, path: &Path) -> bool {
    path.exists()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn temp_names_parse() {
        assert_eq!(parse_temp_name("a.tb.tmp.123"), Some(("a.tb", 123)));
        assert_eq!(parse_temp_name("a.tb.tmp"), None);
        assert_eq!(parse_temp_name("a.tmp.12x"), None);
        assert_eq!(parse_temp_name(".tmp.5"), None);
    }

    #[test]
    fn this_process_is_alive_and_a_huge_pid_is_not() {
        assert!(pid_is_alive(std::process::id()));
        assert!(!pid_is_alive(0x7fff_fff0));
        assert!(!pid_is_alive(0));
    }

    #[test]
    fn a_live_writers_temporary_is_kept() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("ck");
        let live = temp_path(&file);
        std::fs::write(&live, b"x").unwrap();
        let other = dir.path().join("other.tmp.2147483632");
        std::fs::write(&other, b"x").unwrap();
        assert!(remove_stale_temps(&file).is_empty());
        assert!(live.exists() && other.exists());
    }

    #[test]
    fn a_second_lock_of_a_folder_is_refused_until_the_first_is_dropped() {
        let dir = tempfile::tempdir().unwrap();
        let a = DirLock::try_new(dir.path()).unwrap();
        assert!(matches!(
            DirLock::try_new(dir.path()),
            Err(LockError::Busy { .. })
        ));
        drop(a);
        DirLock::try_new(dir.path()).unwrap();
        assert_eq!(
            std::fs::read_dir(dir.path()).unwrap().count(),
            0,
            "nothing left"
        );
    }

    #[test]
    fn an_old_builds_unheld_lock_file_is_removed_and_a_held_one_kept() {
        let dir = tempfile::tempdir().unwrap();
        let old = dir.path().join(LOCK_FILE);
        let f = File::create(&old).unwrap();
        assert!(try_lock_exclusive(&f).unwrap());
        drop(DirLock::try_new(dir.path()).unwrap());
        assert!(old.exists(), "held by an old generation: kept");
        drop(f);
        drop(DirLock::try_new(dir.path()).unwrap());
        assert!(!old.exists());
    }

    #[test]
    fn a_file_lock_never_takes_or_removes_a_users_file_in_its_place() {
        let dir = tempfile::tempdir().unwrap();
        let ck = dir.path().join("ck");
        std::fs::write(dir.path().join("ck.lock"), b"my notes").unwrap();
        assert!(matches!(
            FileLock::try_new(&ck),
            Err(LockError::Foreign { .. })
        ));
        assert_eq!(
            std::fs::read(dir.path().join("ck.lock")).unwrap(),
            b"my notes"
        );
        std::fs::remove_file(dir.path().join("ck.lock")).unwrap();
        std::fs::create_dir(dir.path().join("ck.lock")).unwrap();
        assert!(matches!(
            FileLock::try_new(&ck),
            Err(LockError::Foreign { .. })
        ));
        assert!(dir.path().join("ck.lock").is_dir());
    }

    #[test]
    fn a_file_lock_survives_its_lock_file_being_replaced_and_a_dead_holders_file() {
        let dir = tempfile::tempdir().unwrap();
        let ck = dir.path().join("ck");
        // Left by a run that died: not held, taken.
        std::fs::write(dir.path().join("ck.lock"), b"").unwrap();
        let a = FileLock::try_new(&ck).unwrap();
        assert!(matches!(
            FileLock::try_new(&ck),
            Err(LockError::Busy { .. })
        ));
        drop(a);
        assert!(!dir.path().join("ck.lock").exists());
        let _b = FileLock::try_new(&ck).unwrap();
        assert!(matches!(
            FileLock::try_new(&ck),
            Err(LockError::Busy { .. })
        ));
    }
}
