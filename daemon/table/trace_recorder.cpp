#include "daemon/table/trace_recorder.hpp"

#include <algorithm>

#include "daemon/trace/trace_reader.hpp"
#include "daemon/trace/trace_writer.hpp"

namespace vivaref::table {

namespace {

// The reader a scan or reader-fault line names.
std::optional<drivers::ReaderIndex> lineReader(const drivers::BoardLayout& layout,
                                               const trace::TraceInput& input) {
    if (const auto* scan = std::get_if<trace::ScanLine>(&input)) return layout.findReader(scan->reader);
    if (const auto* fault = std::get_if<trace::ReaderFaultLine>(&input))
        return layout.findReader(fault->reader);
    return std::nullopt;
}

}  // namespace

TraceRecorder::TraceRecorder(store::GameStore& store, drivers::BoardLayout layout, RecorderOptions options)
    : store_(store),
      layout_(std::move(layout)),
      options_(std::move(options)),
      runs_(layout_.readerCount(), options_.sensing),
      holds_(layout_.readerCount()) {}

void TraceRecorder::inputTaken(const trace::TraceLine& line, std::optional<store::GameId> game) {
    const auto reader = lineReader(layout_, line.input);
    record(game, line.t, trace::writeTraceLine(line), reader);
    if (reader) {
        // What the reader holds from now on (a board's trace), in the form it
        // is written when a game starts: its tags in order, no `once`.
        if (const auto* scan = std::get_if<trace::ScanLine>(&line.input)) {
            const drivers::TagSet tags(scan->tags.begin(), scan->tags.end());
            holds_[*reader] = trace::ScanLine{scan->reader, {tags.begin(), tags.end()}};
        } else {
            const auto& fault = std::get<trace::ReaderFaultLine>(line.input);
            holds_[*reader] = trace::ReaderFaultLine{fault.reader, fault.what};
        }
    }
    // A new game's request goes to disk at once, with the game's first lines.
    if (const auto* host = std::get_if<trace::HostLine>(&line.input);
        host && host->kind == trace::HostKind::NewGame)
        (void)store_.flush();
}

void TraceRecorder::castleScanned(drivers::ReaderIndex reader, const drivers::ScanResult& result,
                                  Timestamp at, bool taken, std::optional<store::GameId> game) {
    castleMode_ = true;
    (void)runs_.repeats(reader, result, at);
    if (!taken) return;
    record(game, at.count(), trace::writeTraceLine(onceLine(layout_.reader(reader), result, at)), reader);
    ++counters_.onceLines;
}

void TraceRecorder::ownChance(const referee::OwnChance& chance, std::optional<store::GameId> game) {
    // Written as the host line that would have made the same decision.
    nlohmann::json line = {{"t", chance.at.count()}, {"host", chance.host}};
    trace::LineParse parsed = trace::parseTraceLine(line.dump());
    record(game, chance.at.count(), parsed.line ? trace::writeTraceLine(*parsed.line) : line.dump(),
           std::nullopt);
    ++counters_.ownChanceLines;
    // The referee's own deal is logged before the line that stands for it:
    // that line goes to disk at once (a few times a game), not a second later.
    (void)store_.flush();
}

trace::TraceLine TraceRecorder::onceLine(const drivers::ReaderId& reader, const drivers::ScanResult& result,
                                         Timestamp at) {
    if (result.ok())
        return {at.count(), trace::ScanLine{reader, {result.tags().begin(), result.tags().end()}, true}};
    // "no answer" for a chip that does not answer (how a replay reads it), the kind and detail otherwise.
    const auto& error = result.error();
    std::string what =
        error.kind == drivers::ScanErrorKind::NoAnswer ? "no answer" : drivers::errorKindName(error.kind);
    const std::string prefix = "reader " + reader.name + ": ";
    const std::string detail =
        error.message.starts_with(prefix) ? error.message.substr(prefix.size()) : error.message;
    // A detail that already starts with the kind is the whole text (and reads back the same).
    if (!detail.empty()) what = detail.starts_with(what) ? detail : what + ": " + detail;
    return {at.count(), trace::ReaderFaultLine{reader, what, true}};
}

void TraceRecorder::record(std::optional<store::GameId> game, std::int64_t t, const std::string& text,
                           std::optional<drivers::ReaderIndex> reader) {
    if (!game) {
        if (heldLines_.size() >= options_.heldLinesLimit && !heldLines_.empty()) {
            heldLines_.pop_front();
            ++counters_.heldLinesDropped;
        }
        if (options_.heldLinesLimit > 0) heldLines_.push_back({t, text, reader});
        return;
    }
    if (recordingGame_ != game) {
        recordingGame_ = game;
        writeStart(*game, t);
        // A new game's first lines (its request, the board) go to disk at
        // once: a crash before its first decision still leaves its trace.
        append(*game, t, text);
        (void)store_.flush();
        return;
    }
    append(*game, t, text);
}

void TraceRecorder::append(store::GameId game, std::int64_t t, const std::string& text) {
    (void)store_.appendTrace(game, t, text);
    ++counters_.linesWritten;
}

// A game's trace starts with the lines held for it, then what every reader
// the trace drives holds at its start when no held line said it: so each
// game of a session replays alone (`trace export`), its board as it stood.
void TraceRecorder::writeStart(store::GameId game, std::int64_t t) {
    std::vector<bool> said(layout_.readerCount(), false);
    for (const auto& line : heldLines_) {
        append(game, line.t, line.text);
        if (line.reader) said[*line.reader] = true;
    }
    heldLines_.clear();
    for (drivers::ReaderIndex r = 0; r < said.size(); ++r) {
        if (said[r]) continue;
        if (castleMode_) {
            // What the reader's window holds: its last scan as many times in
            // a row as the pipeline took it.
            const auto& last = runs_.last(r);
            if (!last) continue;
            const std::string text = trace::writeTraceLine(onceLine(layout_.reader(r), *last, Timestamp(t)));
            for (std::size_t i = 0; i < runs_.taken(r); ++i) append(game, t, text);
        } else if (holds_[r]) {
            append(game, t, trace::writeTraceLine(trace::TraceLine{t, *holds_[r]}));
        }
    }
}

}  // namespace vivaref::table
