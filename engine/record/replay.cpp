#include "engine/record/replay.hpp"

#include <new>

#include "engine/record/record_replayer.hpp"
#include "engine/record/result_json.hpp"

namespace vivaref::record {

using engine::Refusal;
using engine::RefusalCode;
using nlohmann::json;

json replayRecord(std::string_view text, const engine::MessageText& words) {
    RecordReplayer replayer;
    try {
        replayer.play(text);
        replayer.finish();
        if (const auto& failure = replayer.failure())
            return failureJson(failure->line, failure->refusal, words);
        return resultJson(*replayer.state());
    } catch (const std::bad_alloc&) {
        return failureJson(replayer.line(),
                           Refusal{RefusalCode::BadRecord, engine::Message("record.too-large")}, words);
    } catch (...) {
        // Only a bug of ours can get here; the record still gets an answer.
        return failureJson(replayer.line(),
                           Refusal{RefusalCode::BadRecord, engine::Message("record.unreadable-line")}, words);
    }
}

}  // namespace vivaref::record
