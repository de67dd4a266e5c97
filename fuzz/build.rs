// Links the system isl (Debian: libisl-dev) for the differential checks. Only this
// fuzz/verification crate uses isl; no library crate of the workspace does.
fn main() {
    println!("cargo:rustc-link-lib=isl");
}
