// The msm layer in one include: naive reference, Pippenger, batch-affine sum, split MSM.
#pragma once
#include "msm/batch_add.hpp"
#include "msm/msm_options.hpp"
#include "msm/naive_msm.hpp"
#include "msm/pippenger.hpp"
#include "msm/split_msm.hpp"
