// blst-made affine points (Montgomery form, blst's layout, as sppark reads them): a walk k G + j S.
#include <blst.h>

#include <cstdint>
#include <cstring>
#include <vector>

void make_points_g1(uint8_t* out, int m) {
  byte k[32] = {7, 1, 2, 3}, s[32] = {11, 5, 9};
  std::vector<blst_p1> j(m);
  blst_p1 acc, step;
  blst_p1_mult(&acc, blst_p1_generator(), k, 256);
  blst_p1_mult(&step, blst_p1_generator(), s, 256);
  blst_p1_affine st;
  blst_p1_to_affine(&st, &step);
  for (int i = 0; i < m; ++i) { j[i] = acc; blst_p1_add_or_double_affine(&acc, &acc, &st); }
  std::vector<const blst_p1*> ptr(m);
  for (int i = 0; i < m; ++i) ptr[i] = &j[i];
  blst_p1s_to_affine(reinterpret_cast<blst_p1_affine*>(out), ptr.data(), m);
}

void make_points_g2(uint8_t* out, int m) {
  byte k[32] = {7, 1, 2, 3}, s[32] = {11, 5, 9};
  std::vector<blst_p2> j(m);
  blst_p2 acc, step;
  blst_p2_mult(&acc, blst_p2_generator(), k, 256);
  blst_p2_mult(&step, blst_p2_generator(), s, 256);
  blst_p2_affine st;
  blst_p2_to_affine(&st, &step);
  for (int i = 0; i < m; ++i) { j[i] = acc; blst_p2_add_or_double_affine(&acc, &acc, &st); }
  std::vector<const blst_p2*> ptr(m);
  for (int i = 0; i < m; ++i) ptr[i] = &j[i];
  blst_p2s_to_affine(reinterpret_cast<blst_p2_affine*>(out), ptr.data(), m);
}
