#include "tests/real/emulated_castle.hpp"

#include <algorithm>
#include <fstream>
#include <iterator>
#include <stdexcept>

#include "daemon/config/config_check.hpp"
#include "daemon/trace/table_script.hpp"
#include "daemon/trace/trace_writer.hpp"
#include "drivers/sim/simulated_board.hpp"
#include "drivers/sim/standing_spot.hpp"
#include "engine/roster.hpp"

namespace vivaref::realtest {

namespace {

using drivers::emulation::EmulatedMfrc522;

// The SPI link the table opens for a reader: straight to the emulated chips
// wired to its select (normally its own one; none: MISO reads 0x00; two:
// their answers ORed, as two chips driving one line would garble them).
// With bus time, the chips share the loop's clock as they share the bus: a
// transfer starts at the loop's now and the loop's now moves on to its end.
// Without, the bus costs the loop nothing, but the loop's own waits pass for
// the chip too (an interleaved scan waits for its chip's radio on the loop's
// timer).
class ChipLink final : public drivers::SpiTransport {
public:
    ChipLink(std::vector<EmulatedMfrc522*> chips, drivers::ManualClock& clock, bool busTime)
        : chips_(std::move(chips)), clock_(clock), busTime_(busTime), lastLoopNow_(clock.nowMicros()) {}
    using SpiTransport::transfer;
    std::error_code transfer(std::span<const std::uint8_t> tx, std::span<std::uint8_t> rx,
                             std::chrono::microseconds settle) override {
        std::fill(rx.begin(), rx.end(), std::uint8_t{0});
        const auto loopNow = clock_.nowMicros();
        std::vector<std::uint8_t> answer(rx.size());
        auto end = loopNow;
        for (EmulatedMfrc522* chip : chips_) {
            if (!busTime_)
                chip->idleUntil(chip->nowNs() + (loopNow - lastLoopNow_).count() * 1000);
            else
                chip->idleUntil(loopNow.count() * 1000);
            if (const auto ec = chip->transfer(tx, answer, settle)) return ec;
            for (std::size_t i = 0; i < rx.size(); ++i) rx[i] |= answer[i];
            end = std::max(end, std::chrono::microseconds(chip->nowNs() / 1000));
        }
        lastLoopNow_ = loopNow;
        if (busTime_) clock_.set(end);
        return {};
    }

private:
    std::vector<EmulatedMfrc522*> chips_;
    drivers::ManualClock& clock_;
    bool busTime_;
    std::chrono::microseconds lastLoopNow_;
};

// The select a reader is configured with, as EmulatedFaults::wiredTo names it.
std::string configuredSelect(const config::ReaderConfig& r) {
    return r.chipSelect ? r.chipSelect->text() : "ce:" + r.bus;
}

}  // namespace

std::string classicCastleIni() {
    std::string ini =
        "[castle]\nedition = classic\n\n[daemon]\nhardware = real\nstate_dir = "
        "@STATE@\n\n[buttons]\ndebounce_ms = 20\nactive_low = true\nbias = pull-up\n\n";
    ini += "[leds]\n";
    for (int p = 0; p <= 6; ++p)
        ini += "place." + std::to_string(p) + " = gpiochip5:" + std::to_string(p) + "\n";
    for (int s = 0; s < 6; ++s)
        ini += "turn." + std::to_string(s) + " = gpiochip4:" + std::to_string(8 + s) + "\n";
    ini += "\n";
    auto reader = [&](const std::string& name, const std::string& place, const std::string& cs) {
        ini += "[reader." + name + "]\nplace = " + place + "\ntype = mfrc522\nbus = /dev/spidev0." +
               (cs == "bus" ? "0" : "1") + "\nchip_select = " + cs + "\n\n";
    };
    reader("floor3-a", "3", "bus");
    int line = 0;
    for (const std::string place : {"0", "1", "2", "4", "5"})
        reader("floor" + place, place, "gpiochip0:" + std::to_string(20 + line++));
    reader("floor3-b", "3", "gpiochip0:" + std::to_string(20 + line++));
    reader("throne", "6", "gpiochip0:" + std::to_string(20 + line++));
    for (int s = 0; s < 6; ++s) {
        ini += "[station." + std::to_string(s) + "]\nyes = gpiochip2:" + std::to_string(4 * s) +
               "\nno = gpiochip2:" + std::to_string(4 * s + 1) +
               "\nled = gpiochip2:" + std::to_string(4 * s + 3) + "\n\n";
    }
    return ini;
}

BriskGame brisk2024Game(std::uint64_t seed, bool handNoise) {
    engine::RulesSpec spec;
    spec.edition = engine::Edition::Vive2024;
    spec.seats = 3 + static_cast<int>(seed % 3);
    BriskGame game;
    game.record = simtest::randomRecord(spec, seed);
    trace::TableScriptOptions script;
    script.start = 1000;
    script.timing = trace::TableTiming::brisk();
    script.noise.seed = handNoise ? seed : 0;
    game.lines = trace::tableScriptFromRecord(game.record, script).lines;
    return game;
}

std::string exampleCastleIni(const std::string& sourceDir) {
    std::ifstream in(sourceDir + "/daemon/config/examples/castle-2024.ini");
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::vector<std::uint8_t> tagBytes(const drivers::TagUid& uid) {
    return {uid.bytes().begin(), uid.bytes().end()};
}

EmulatedCastle::EmulatedCastle(std::string ini, EmulatedCastleOptions emulation) {
    if (auto at = ini.find("@STATE@"); at != std::string::npos) ini.replace(at, 7, dir_.path().string());
    const auto file = dir_ / "castle.ini";
    std::ofstream(file) << ini << "\n";
    const auto check = config::checkCastleConfigFile(file);
    if (check.status != config::ConfigCheck::Status::Valid) {
        std::string text;
        for (const auto& p : check.problems) text += p.text() + "\n";
        throw std::runtime_error("the test's configuration is not valid:\n" + text);
    }
    castle_ = check.config;
    // Every character of the castle's edition, by its simulated tag.
    const auto& roster =
        castle_.edition == config::CastleEdition::Classic ? engine::classicRoster() : engine::roster2024();
    for (const auto& c : roster.characters()) tags_.enrol(drivers::simulatedTagUid(c.id), {c.id});

    faults_ = emulation.faults;
    for (const auto& r : castle_.readers) {
        chips_[r.name] = std::make_unique<EmulatedMfrc522>(emulation.timing);
        if (auto v = faults_.versions.find(r.name); v != faults_.versions.end())
            chips_[r.name]->setVersion(v->second);
    }
    // Held from before the castle opens its lines: the level it reads at start-up.
    for (const auto& [station, key] : faults_.stuckKeys) gpio_.setLevel(keyLine(station, key), true);
    store_ = std::make_unique<store::GameStore>(
        dir_ / "games.sqlite", store::GameStore::Access::CreateIfMissing, store::Durability::Normal);
    table::TableOptions options;
    options.registry = tags_;
    options.sensing = castle_.sensing;
    options.referee.stationSeats = castle::stationSeats(castle_);  // as serve on this castle
    options.referee.seed = 7;
    options.referee.wallAtZero = store::WallTime(std::chrono::milliseconds(1'700'000'000'000));
    if (emulation.onJudged)
        options.onJudged = [this, judged = emulation.onJudged](const drivers::SensingUpdate& update,
                                                               std::chrono::nanoseconds, int) {
            judged(update, table_->table().now());
        };
    options.onProblem = [this](const std::string& p) { problems_.push_back(p); };
    table_ = std::make_unique<server::TableCore>(clock_, store_.get(), castle::realBoardLayout(castle_),
                                                 std::move(options));
    hooks_.onRawScan = emulation.onRawScan;
    hooks_.onNotice = emulation.onNotice;
    table_->table().attach(hooks_);

    castle::RealDevices devices;
    devices.gpio = &gpio_;
    devices.readers.gpio = &gpio_;
    devices.readers.openSpi = [this, busTime = emulation.busTime](const config::ReaderConfig& r,
                                                                  drivers::ChipSelect*) {
        std::vector<EmulatedMfrc522*> wired;
        for (const auto& other : castle_.readers) {
            auto it = faults_.wiredTo.find(other.name);
            const std::string select = it != faults_.wiredTo.end() ? it->second : configuredSelect(other);
            if (select == configuredSelect(r)) wired.push_back(chips_.at(other.name).get());
        }
        return std::make_unique<ChipLink>(std::move(wired), clock_, busTime);
    };
    real_ = std::make_unique<castle::RealCastle>(castle_, clock_, devices);
    loop_ = std::make_unique<server::TableLoop>(*real_, *table_, clock_);
    loop_->start();
}

void EmulatedCastle::runUntil(Timestamp end) {
    const std::chrono::microseconds until = end;
    while (clock_.nowMicros() < until) {
        const auto next = loop_->step();
        clock_.set(std::min(next, until));
    }
}

void EmulatedCastle::play(const std::vector<trace::TraceLine>& lines) {
    for (const auto& line : lines) {
        runUntil(Timestamp(line.t));
        apply(line);
    }
}

void EmulatedCastle::putOver(const std::string& reader, const drivers::TagUid& uid) {
    liftTag(uid);
    std::set<std::string> fields{reader};
    for (const auto& [a, b] : faults_.coupled) {
        if (a == reader) fields.insert(b);
        if (b == reader) fields.insert(a);
    }
    for (const auto& name : fields) chip(name).field().add(drivers::emulation::EmulatedTag(tagBytes(uid)));
    fieldOf_[uid] = reader;
}

void EmulatedCastle::liftTag(const drivers::TagUid& uid) {
    auto it = fieldOf_.find(uid);
    if (it == fieldOf_.end()) return;
    for (auto& [name, chip] : chips_) chip->field().remove(tagBytes(uid));
    fieldOf_.erase(it);
}

void EmulatedCastle::apply(const trace::TraceLine& line) {
    if (const auto* put = std::get_if<trace::PutLine>(&line.input)) {
        const auto uid = put->tag.uid();
        liftTag(uid);
        const auto layout = castle::realBoardLayout(castle_);
        const auto place = layout.findPlace(put->place);
        if (!place) throw std::runtime_error("no place " + put->place.name);
        // Where a player stands it, as the simulated board does.
        std::vector<std::size_t> tagsOver(layout.readerCount());
        for (const auto& [tag, reader] : fieldOf_) ++tagsOver[*layout.findReader({reader})];
        putOver(layout.reader(drivers::standingSpot(layout, *place, tagsOver)).name, uid);
    } else if (const auto* lift = std::get_if<trace::LiftLine>(&line.input)) {
        liftTag(lift->tag.uid());
    } else if (const auto* button = std::get_if<trace::ButtonLine>(&line.input)) {
        pressKey(button->station.number, button->key);
    } else if (const auto* host = std::get_if<trace::HostLine>(&line.input)) {
        auto& table = table_->table();
        (void)table.host(*host, table.stamp());  // the host's page, at the loop's time
    }
}

drivers::LineAddress EmulatedCastle::keyLine(int station, drivers::VoteKey key) const {
    for (const auto& spec : castle::keySpecs(castle_))
        if (spec.station.number == station && spec.key == key) return spec.line;
    throw std::runtime_error("no such key");
}

void EmulatedCastle::pressKey(int station, drivers::VoteKey key, Timestamp heldFor) {
    if (faults_.stuckKeys.contains({station, key})) {  // the line is held: a finger moves nothing
        runUntil(clock_.now() + heldFor);
        return;
    }
    const auto line = keyLine(station, key);
    const Timestamp at = clock_.now();
    gpio_.queueEdge(line, true, at);
    (void)loop_->keyReadable(gpio_.input(line).fd);  // the loop: its descriptor became readable
    runUntil(at + heldFor);
    gpio_.queueEdge(line, false, clock_.now());
    (void)loop_->keyReadable(gpio_.input(line).fd);
}

drivers::testing::MemoryGpioLines::Output& EmulatedCastle::led(const std::string& name) {
    for (const auto& spec : castle::ledSpecs(castle_))
        if (spec.led.name == name) return gpio_.output(spec.line);
    throw std::runtime_error("no LED " + name);
}

bool EmulatedCastle::ledLit(const std::string& name) {
    return !faults_.deadLeds.contains(name) && led(name).level;
}

std::vector<bool> EmulatedCastle::watchLed(const std::string& name, Timestamp end) {
    auto& out = led(name);
    const std::size_t before = out.writes.size();
    runUntil(end);
    return {out.writes.begin() + static_cast<std::ptrdiff_t>(before), out.writes.end()};
}

std::string EmulatedCastle::traceText(std::int64_t game) {
    std::string text;
    for (const auto& line : store_->traceLines(store::GameId{game})) text += line + "\n";
    return text;
}

}  // namespace vivaref::realtest
