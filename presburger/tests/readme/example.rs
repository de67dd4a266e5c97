use presburger::{Map, Set};

fn main() -> Result<(), presburger::Error> {
    // The iterations of: for (i = 0; i < N; i++) for (j = 0; j <= i; j += 2) S(i, j);
    let d: Set = "[N] -> { S[i, j] : 0 <= i < N and 0 <= j <= i and exists e : j = 2e }".parse()?;

    // S(i, j) writes A[i + j]: the elements written, for every N at once.
    let w: Map = "[N] -> { S[i, j] -> A[i + j] }".parse()?;
    let written = w.apply_to(&d)?;
    println!("{written}");
    assert!(written.is_subset(&"[N] -> { A[a] : 0 <= a <= 2N - 2 }".parse()?)?);

    // The last iteration, as a function of N (parametric integer programming).
    let last = d.lexmax_set()?;
    let want: Set = "[N] -> { S[N - 1, j] : exists k : j = 2k and N - 2 <= j < N and N >= 1 }".parse()?;
    assert!(last.is_equal(&want)?);
    println!("{last}");
    Ok(())
}
