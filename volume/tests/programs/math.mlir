// math ops in f32 and f64 on the pseudo-random inputs.
#id = affine_map<(d0) -> (d0)>
func.func @math(%x: tensor<64xf32>, %y: tensor<64xf64>) -> (tensor<64xf32>, tensor<64xf64>) {
  %e = tensor.empty() : tensor<64xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<64xf32>) outs(%e : tensor<64xf32>) {
  ^bb0(%a: f32, %o: f32):
    %0 = math.exp %a : f32
    %1 = math.absf %a : f32
    %2 = math.sqrt %1 : f32
    %3 = math.log %0 : f32
    %4 = math.tanh %a : f32
    %5 = arith.addf %2, %3 : f32
    %6 = arith.addf %5, %4 : f32
    %7 = math.floor %6 : f32
    %8 = math.ceil %6 : f32
    %9 = arith.subf %8, %7 : f32
    %10 = arith.addf %6, %9 : f32
    %11 = math.exp2 %a : f32
    %12 = math.log2 %2 : f32
    %13 = math.log10 %0 : f32
    %14 = math.log1p %1 : f32
    %15 = math.expm1 %a : f32
    %16 = math.round %15 : f32
    %17 = math.roundeven %14 : f32
    %18 = math.trunc %13 : f32
    %19 = math.rsqrt %0 : f32
    %20 = math.powf %0, %a : f32
    %21 = math.copysign %20, %a : f32
    %22 = math.fma %21, %19, %18 : f32
    %23 = arith.remf %22, %11 : f32
    %24 = math.sin %a : f32
    %25 = math.cos %a : f32
    %s1 = arith.addf %10, %11 : f32
    %s2 = arith.addf %s1, %12 : f32
    %s3 = arith.addf %s2, %16 : f32
    %s4 = arith.addf %s3, %17 : f32
    %s5 = arith.addf %s4, %23 : f32
    %s6 = arith.addf %s5, %24 : f32
    %s7 = arith.addf %s6, %25 : f32
    linalg.yield %s7 : f32
  } -> tensor<64xf32>
  %e2 = tensor.empty() : tensor<64xf64>
  %s = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%y : tensor<64xf64>) outs(%e2 : tensor<64xf64>) {
  ^bb0(%a: f64, %o: f64):
    %0 = math.exp %a : f64
    %1 = math.absf %a : f64
    %2 = math.sqrt %1 : f64
    %3 = math.log %0 : f64
    %4 = math.tanh %a : f64
    %5 = arith.addf %2, %3 : f64
    %6 = arith.addf %5, %4 : f64
    linalg.yield %6 : f64
  } -> tensor<64xf64>
  return %r, %s : tensor<64xf32>, tensor<64xf64>
}
