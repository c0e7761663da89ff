// A message on the wire: what the API sends beside (or instead of) a
// sentence, for the pages to render in the reader's language.
//   {"code": "refusal.floor-full", "args": {"floor": 3, "limit": 4}}
// A parameter is a JSON number (a number), or an object naming its kind:
//   {"seat": 0} (from 0, as everywhere in the API), {"character": SLUG,
//   "name": NAME, "kind": "woman" | "man" | "dog" | "jester"}, {"place": "wc3"}, {"player": NAME}, {"vote":
//   "yes"},
//   {"ambition": SLUG}, {"list": [PARAMETER...]}, {"message": MESSAGE},
//   {"text": WORDS}.
#pragma once

#include <nlohmann/json.hpp>

#include "engine/message.hpp"

namespace vivaref::words {

nlohmann::json messageJson(const engine::Message& message);

// Throws std::invalid_argument naming what is wrong.
engine::Message messageFromJson(const nlohmann::json& json);

}  // namespace vivaref::words
