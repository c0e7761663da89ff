#include "engine/record/replay.hpp"

#include <new>

#include "engine/record/record_replayer.hpp"
#include "engine/record/result_json.hpp"

namespace vivaref::record {

using engine::Refusal;
using engine::RefusalCode;
using nlohmann::json;

json replayRecord(std::string_view text) {
    RecordReplayer replayer;
    try {
        replayer.play(text);
        replayer.finish();
        if (const auto& failure = replayer.failure()) return failureJson(failure->line, failure->refusal);
        return resultJson(*replayer.state());
    } catch (const std::bad_alloc&) {
        return failureJson(replayer.line(),
                           Refusal{RefusalCode::BadRecord, "The record is too large to replay."});
    } catch (...) {
        // Only a bug of ours can get here; the record still gets an answer.
        return failureJson(replayer.line(), Refusal{RefusalCode::BadRecord, "This line could not be read."});
    }
}

}  // namespace vivaref::record
