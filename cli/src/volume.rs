//! `poly volume FILE.mlir [--output %name] [--tile DIM=SIZE,...] [--regions]
//! [--no-clone-constants] [--opaque-unknown]`: the volume model of an MLIR
//! `linalg`/`tensor` function (crate `volume`).
//!
//! Prints the program's element map of the chosen live-out (the first by
//! default), its domain, and its regions with their sizes: `constant` (elements
//! that depend on a padding value), `dense`, `static` (only constants involved),
//! `edge` and `corner`. `--regions` adds one line per region, `region NAME:
//! ISL-SET`. `--tile 2=16,3=16` tiles dimensions 2 and 3 by 16 and prints the tile
//! sets (`tiles all: ...`, `tiles interior: ...`) and, for each volume the output
//! reads, the slice one interior tile reads (`slice NAME: offsets [..] sizes [..]
//! strides [..]`, in the tile parameters `Q<dim>`).
//!
//! Code generation (`presburger_volume::emit`): `--emit OUT.mlir` writes a module computing
//! the output tiled with the `--tile` sizes (Algorithm 2's interior tile loops and
//! Algorithm 1's partitions around them); `--emit-regions OUT.mlir` writes the
//! output computed per region (Algorithm 1 alone); `--no-interchange` keeps
//! each cloned op's loop order (by default an op with reductions gets its
//! output's last loop innermost, which keeps every element's summation order);
//! `--arith-index` writes index arithmetic with `arith` ops instead of
//! `affine.apply`/`min`/`max`.
//! The emitted function keeps the
//! name and signature of the original. `--main OUT.mlir [--main-module M.mlir]
//! [--reps N] [--dyn-size N] [--index NAME=V,...]` writes M (default: the input)
//! with a `@main` that fills the arguments deterministically, calls the function
//! N times printing each call's time, and prints a hash of the result's bits (for
//! `mlir-runner`).

use presburger::Set;
use presburger_volume::model::{Model, Options, box_extents, count_points};
use presburger_volume::tiling::{Slice, disjoint_pieces};
use std::fmt::Write as _;

/// Enumeration limit for counting the points of pieces that are not boxes.
const COUNT_LIMIT: usize = 1 << 20;

struct Args {
    file: Option<String>,
    output: Option<String>,
    tiles: Vec<(usize, i64)>,
    regions: bool,
    options: Options,
    emit: Option<String>,
    emit_regions: Option<String>,
    main: Option<String>,
    main_module: Option<String>,
    reps: usize,
    sizes: presburger_volume::interp::harness::HarnessSizes,
    emit_options: presburger_volume::emit::EmitOptions,
}

fn parse_tiles(spec: &str) -> Result<Vec<(usize, i64)>, String> {
    let mut tiles = Vec::new();
    for part in spec.split(',').filter(|p| !p.trim().is_empty()) {
        let (d, s) = part
            .split_once('=')
            .ok_or_else(|| format!("--tile: '{part}' is not DIM=SIZE (e.g. 2=16)"))?;
        let d = crate::args::integer("--tile: the dimension", d, 0, u32::MAX.into())? as usize;
        let s = crate::args::integer(
            &format!("--tile: the size of dimension {d}"),
            s,
            1,
            i64::MAX.into(),
        )? as i64;
        tiles.push((d, s));
    }
    if tiles.is_empty() {
        return Err("--tile needs DIM=SIZE pairs, e.g. --tile 2=16,3=16".into());
    }
    Ok(tiles)
}

fn parse_args(args: &[String]) -> Result<Args, String> {
    let mut a = Args {
        file: None,
        output: None,
        tiles: Vec::new(),
        regions: false,
        options: Options::default(),
        emit: None,
        emit_regions: None,
        main: None,
        main_module: None,
        reps: 1,
        sizes: presburger_volume::interp::harness::HarnessSizes {
            dynamic: 37,
            index_args: Vec::new(),
        },
        emit_options: presburger_volume::emit::EmitOptions::default(),
    };
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--output" => {
                a.output = Some(
                    it.next()
                        .ok_or("--output needs a value name, e.g. --output %act0")?
                        .clone(),
                )
            }
            "--tile" => a.tiles = parse_tiles(it.next().ok_or("--tile needs DIM=SIZE,...")?)?,
            "--regions" => a.regions = true,
            "--no-interchange" => a.emit_options.interchange = false,
            "--arith-index" => a.emit_options.arith_index = true,
            "--emit" => a.emit = Some(it.next().ok_or("--emit needs an output file")?.clone()),
            "--emit-regions" => {
                a.emit_regions = Some(
                    it.next()
                        .ok_or("--emit-regions needs an output file")?
                        .clone(),
                )
            }
            "--main" => a.main = Some(it.next().ok_or("--main needs an output file")?.clone()),
            "--main-module" => {
                a.main_module = Some(it.next().ok_or("--main-module needs a file")?.clone())
            }
            "--reps" => {
                let v = it.next().ok_or("--reps needs a number of calls")?;
                a.reps = crate::args::integer("--reps", v, 1, u32::MAX.into())? as usize;
            }
            "--dyn-size" => {
                let v = it
                    .next()
                    .ok_or("--dyn-size needs the size of every `?` dimension")?;
                a.sizes.dynamic = crate::args::integer("--dyn-size", v, 0, i64::MAX.into())? as _;
            }
            "--index" => {
                for part in it.next().ok_or("--index needs NAME=VALUE,...")?.split(',') {
                    let (n, v) = part
                        .split_once('=')
                        .ok_or_else(|| format!("--index: '{part}' is not NAME=VALUE"))?;
                    let n = n.trim().trim_start_matches('%');
                    let v = crate::args::signed(&format!("--index: %{n}"), v)?;
                    if a.sizes.index_args.iter().any(|(m, _)| m == n) {
                        return Err(format!("--index: %{n} is given twice"));
                    }
                    a.sizes.index_args.push((n.to_string(), v));
                }
            }
            "--no-clone-constants" => a.options.clone_constants = false,
            "--opaque-unknown" => a.options.opaque_unknown = true,
            s if s.starts_with("--") => return Err(format!("unknown option '{s}'")),
            s if a.file.is_none() => a.file = Some(s.to_string()),
            s => return Err(format!("unexpected argument '{s}'")),
        }
    }
    Ok(a)
}

/// The size of a set in words: its point count where it has one, and the boxes it
/// is made of when there are few.
fn describe(set: &Set) -> Result<String, String> {
    let e = |e: presburger_volume::Error| e.to_string();
    if set.is_empty().map_err(|x| e(x.into()))? {
        return Ok("empty".into());
    }
    if set.space().n_param() > 0 {
        return Ok("size depends on the parameters".into());
    }
    let mut words = match count_points(set, COUNT_LIMIT).map_err(e)? {
        Some(1) => "1 element".to_string(),
        Some(n) => format!("{n} elements"),
        None => "not counted (unbounded, or too many points outside boxes)".to_string(),
    };
    let pieces = disjoint_pieces(set).map_err(e)?;
    if pieces.len() <= 8 {
        let mut boxes = Vec::new();
        for p in &pieces {
            match box_extents(p).map_err(e)? {
                Some(ext) => boxes.push(
                    ext.iter()
                        .map(|(lo, hi)| {
                            if lo == hi {
                                lo.to_string()
                            } else {
                                format!("{lo}..{hi}")
                            }
                        })
                        .collect::<Vec<_>>()
                        .join(", "),
                ),
                None => {
                    boxes.clear();
                    break;
                }
            }
        }
        if !boxes.is_empty() {
            let _ = write!(
                words,
                " in {} box{}: [{}]",
                boxes.len(),
                if boxes.len() == 1 { "" } else { "es" },
                boxes.join("], [")
            );
        }
    }
    Ok(words)
}

/// A slice in words: where each dimension starts and how many elements it takes.
fn slice_words(s: &Slice) -> String {
    if s.offsets.is_empty() {
        return "the scalar".into();
    }
    s.offsets
        .iter()
        .zip(&s.sizes)
        .zip(&s.strides)
        .enumerate()
        .map(|(d, ((o, n), st))| {
            let stride = if st == "1" {
                String::new()
            } else {
                format!(" every {st}")
            };
            format!("dim {d}: {n} from {o}{stride}")
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// Runs `poly volume` and returns what it prints.
pub fn run(args: &[String]) -> Result<String, String> {
    let a = parse_args(args)?;
    let text = crate::read_input(a.file.as_ref())?;
    if a.emit.is_some() || a.emit_regions.is_some() || a.main.is_some() {
        return generate(&text, &a).map_err(|e| e.to_string());
    }
    let model = Model::from_mlir(&text, &a.options).map_err(|e| e.to_string())?;
    report(&model, &a).map_err(|e| e.to_string())
}

fn write(path: &str, text: &str) -> Result<(), presburger_volume::Error> {
    std::fs::write(path, text)
        .map_err(|e| presburger_volume::Error::Request(format!("cannot write {path}: {e}")))
}

/// `--emit`, `--emit-regions`, `--main`: writes the files and says what it wrote.
fn generate(text: &str, a: &Args) -> Result<String, presburger_volume::Error> {
    use presburger_volume::emit::emit_with;
    let mut o = String::new();
    if let Some(path) = &a.emit {
        if a.tiles.is_empty() {
            return Err(presburger_volume::Error::Request(
                "--emit needs tile sizes (--tile DIM=SIZE,...); --emit-regions emits the regions alone"
                    .into(),
            ));
        }
        write(
            path,
            &emit_with(
                text,
                &a.options,
                a.output.as_deref(),
                &a.tiles,
                &a.emit_options,
            )?,
        )?;
        let _ = writeln!(
            o,
            "wrote {path} (tiled: interior tile loops and partitions)"
        );
    }
    if let Some(path) = &a.emit_regions {
        write(
            path,
            &emit_with(text, &a.options, a.output.as_deref(), &[], &a.emit_options)?,
        )?;
        let _ = writeln!(o, "wrote {path} (per region)");
    }
    if let Some(path) = &a.main {
        let p = presburger_volume::mlir::parse_program_with(
            text,
            presburger_volume::mlir::Options {
                opaque_unknown: a.options.opaque_unknown,
            },
        )?;
        let module = match &a.main_module {
            Some(m) => std::fs::read_to_string(m)
                .map_err(|e| presburger_volume::Error::Request(format!("cannot read {m}: {e}")))?,
            None => text.to_string(),
        };
        let sizes = a.sizes.for_program(&p)?;
        write(
            path,
            &presburger_volume::interp::harness::with_timed_main(
                &module, &p.name, 1, &sizes, a.reps,
            )?,
        )?;
        let _ = writeln!(o, "wrote {path} (with @main, {} call(s))", a.reps);
    }
    Ok(o)
}

fn report(model: &Model, a: &Args) -> Result<String, presburger_volume::Error> {
    let p = &model.program;
    let names = |vs: &[usize]| {
        vs.iter()
            .map(|&v| format!("%{}", p.value(v).ssa))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let mut o = String::new();
    let _ = writeln!(
        o,
        "program @{}: {} operations; live-ins {}; live-outs {}",
        p.name,
        p.ops.len(),
        if p.args.is_empty() {
            "none".into()
        } else {
            names(&p.args)
        },
        names(&p.returns)
    );
    let out = model.output(a.output.as_deref())?;
    let v = p.value(out);
    let dom = model.domain(out)?;
    let map = model.output_map(out)?.coalesce()?;
    let _ = writeln!(o, "element map of %{}: {map}", v.ssa);
    let _ = writeln!(
        o,
        "domain of %{} ({}): {dom} ({})",
        v.ssa,
        presburger_volume::mlir::type_to_string(&v.ty),
        describe(&dom).map_err(presburger_volume::Error::Invalid)?
    );
    let r = model.regions(out)?;
    let pads = model.padding_values();
    let _ = writeln!(
        o,
        "regions of %{} (constant: the elements that depend on a padding value{}{}):",
        v.ssa,
        if pads.is_empty() {
            "; there is none"
        } else {
            ", "
        },
        names(&pads)
    );
    let regions: [(&str, &Set); 5] = [
        ("constant", &r.constant),
        ("dense", &r.dense),
        ("static", &r.static_only),
        ("edge", &r.edges),
        ("corner", &r.corners),
    ];
    for (name, s) in regions {
        let hull = if s.is_empty()? {
            String::new()
        } else {
            match s.box_hull() {
                Ok(h) => format!("; box hull {h}"),
                Err(presburger::Error::Unsupported(_)) => {
                    "; its box hull's bounds are not affine in the parameters".into()
                }
                Err(e) => return Err(e.into()),
            }
        };
        let _ = writeln!(
            o,
            "  {name}: {}{hull}",
            describe(s).map_err(presburger_volume::Error::Invalid)?
        );
    }
    if a.regions {
        for (name, s) in regions {
            let _ = writeln!(o, "region {name}: {}", s.coalesce()?);
        }
    }
    if !a.tiles.is_empty() {
        let t = model.tile(out, &a.tiles)?;
        let count = |s: &Set| match count_points(s, COUNT_LIMIT) {
            Ok(Some(n)) => format!("{n} tiles"),
            _ => "tiles not counted".into(),
        };
        let _ = writeln!(o, "tiled map: {}", t.tiled_map);
        let _ = writeln!(o, "tiles all: {}", t.all);
        let _ = writeln!(o, "  {} meet the domain", count(&t.all));
        let _ = writeln!(o, "tiles interior: {}", t.interior);
        let _ = writeln!(
            o,
            "  {} lie inside the domain and do not meet the constant region{}",
            count(&t.interior),
            if t.interior_pieces.len() > 1 {
                format!(" (in {} disjoint pieces)", t.interior_pieces.len())
            } else {
                String::new()
            }
        );
        let which = if t.interior.is_empty()? {
            "every tile (none is interior)"
        } else {
            "an interior tile"
        };
        for (leaf, fp, s) in &t.slices {
            if fp.is_empty()? {
                let _ = writeln!(o, "  {which} does not read {leaf}");
                continue;
            }
            match s {
                Some(s) => {
                    let _ = writeln!(o, "slice {leaf}: {s}");
                    let _ = writeln!(o, "  {which} reads {leaf}: {}", slice_words(s));
                }
                None => {
                    let _ = writeln!(o, "slice {leaf}: not a slice; footprint {fp}");
                }
            }
        }
        if let Some(w) = &t.written {
            let _ = writeln!(o, "written {}_tile: {w}", v.volume);
        }
    }
    Ok(o)
}
