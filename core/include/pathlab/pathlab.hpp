#pragma once
/// @file pathlab.hpp
/// Everything of the pathlab core in one include.

#include "pathlab/collision.hpp"
#include "pathlab/geometry.hpp"
#include "pathlab/grid.hpp"
#include "pathlab/grid_search.hpp"
#include "pathlab/map_generators.hpp"
#include "pathlab/map_io.hpp"
#include "pathlab/shortcut.hpp"
#include "pathlab/status.hpp"
