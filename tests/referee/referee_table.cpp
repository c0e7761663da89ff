#include "tests/referee/referee_table.hpp"

#include <functional>

#include "daemon/referee/board_places.hpp"
#include "engine/record/line_writer.hpp"
#include "engine/record/view_json.hpp"
#include "engine/views.hpp"

namespace vivaref::referee::testing {

HostRequest request(const json& host) {
    auto parsed = parseHostRequest(host);
    if (!parsed.ok()) FAIL("not a host request: " << std::get<std::string>(parsed.value));
    return std::get<HostRequest>(parsed.value);
}

json dealFor(const engine::State& state, std::uint64_t seed) {
    engine::Rng rng(seed);
    auto deal = engine::randomDeal(state, rng);
    return json::parse(record::writeDeal(deal, state.rules())).at("deal");
}

std::map<std::string, std::string> expectedBoard(const engine::State& state) {
    std::map<std::string, std::string> out;
    const auto& roster = state.rules().roster();
    for (int i = 0; i < roster.size(); ++i) {
        const engine::CharacterId c{static_cast<std::uint8_t>(i)};
        if (auto place = boardPlace(state.placeOf(c))) out[roster[c].id] = engine::placeName(*place);
    }
    return out;
}

std::string boardPlaceName(engine::Place p) {
    const auto place = boardPlace(p);
    REQUIRE(place);
    return std::string(engine::placeName(*place));
}

std::vector<Notice> noticesOf(const std::vector<Notice>& notices, const std::string& kind) {
    std::vector<Notice> out;
    for (const auto& n : notices)
        if (n.kind == kind) out.push_back(n);
    return out;
}

namespace {

void walk(const json& value, const std::function<void(const std::string&, const json&)>& visit) {
    if (value.is_object()) {
        for (auto it = value.begin(); it != value.end(); ++it) {
            visit(it.key(), it.value());
            walk(it.value(), visit);
        }
    } else if (value.is_array()) {
        for (const auto& item : value) walk(item, visit);
    }
}

}  // namespace

void checkNoSecrets(const json& status, const engine::State& state) {
    const auto& rules = state.rules();
    const json view = record::publicViewJson(engine::publicView(state), rules);
    REQUIRE(status.contains("view"));
    CHECK(status["view"] == view);
    json rest = status;
    rest.erase("view");
    const bool election = state.phase() == engine::Phase::Election;
    walk(rest, [&](const std::string& key, const json&) {
        INFO("key " << key << " in " << rest.dump());
        CHECK(key != "hand");
        CHECK(key != "favourites");
        CHECK(key != "banished");
        CHECK(key != "ambition");
        CHECK(key != "ambition_choices");
        CHECK(key != "own_vote");
        CHECK(key != "pile");
        if (election) {
            CHECK(key != "vote");
            CHECK(key != "votes");
            CHECK(key != "card");
        }
    });
    if (!view["revealed_favourites"].empty()) return;
    const std::string text = status.dump();
    for (int p = 0; p < rules.players(); ++p) {
        const auto& card = state.favourites(engine::PlayerId{static_cast<std::uint8_t>(p)});
        if (card.characters[0].index >= rules.roster().size()) continue;  // not dealt yet
        json names = json::array();
        for (auto c : card.characters) names.push_back(rules.roster()[c].id);
        INFO("player " << p << "'s favourites " << names.dump());
        CHECK(text.find(names.dump()) == std::string::npos);
    }
}

engine::RulesSpec specOf(engine::Edition edition, int seats, engine::Variant variant,
                         engine::Options options) {
    engine::RulesSpec spec;
    spec.edition = edition;
    spec.seats = seats;
    spec.variant = variant;
    spec.options = options;
    return spec;
}

engine::RulesSpec spec2024(int seats, engine::Variant variant, engine::Options options) {
    engine::RulesSpec spec = specOf(engine::Edition::Vive2024, seats, variant, options);
    if (variant == engine::Variant::Teams || variant == engine::Variant::TeamPawn)
        for (int s = 0; s < seats; ++s) spec.teams.push_back({2 * s, 2 * s + 1});
    return spec;
}

// --- HandTable ----------------------------------------------------------------

HandTable::HandTable(store::DecisionLog* store, RefereeOptions options)
    : referee(std::move(options), store) {}

const engine::State& HandTable::state() const {
    REQUIRE(referee.state() != nullptr);
    return *referee.state();
}

HostAnswer HandTable::host(const json& hostRequest) {
    auto answer = referee.host(request(hostRequest), now);
    auto more = referee.takeNotices();
    notices.insert(notices.end(), more.begin(), more.end());
    return answer;
}

void HandTable::start(const json& setup, std::uint64_t dealSeed) {
    auto answer = host({{"new-game", {{"setup", setup}}}});
    REQUIRE_MESSAGE(answer.ok, answer.code << ": " << answer.message);
    answer = host({{"deal", dealFor(state(), dealSeed)}});
    REQUIRE_MESSAGE(answer.ok, answer.code << ": " << answer.message);
    follow();
}

drivers::BoardObservation HandTable::observation() const {
    drivers::BoardObservation o;
    o.at = now;
    for (const auto& [slug, place] : on)
        o.onBoard[drivers::CharacterSlug{slug}] = {drivers::PlaceName{place}, false};
    for (const auto& [slug, from] : inHand) {
        const auto lifted = liftedAt.find(slug);
        drivers::CharacterInHand h{std::nullopt, lifted != liftedAt.end() ? lifted->second : now};
        if (from) h.liftedFrom = drivers::PlaceName{*from};
        o.inHand[drivers::CharacterSlug{slug}] = h;
    }
    std::set<std::string> blind;
    drivers::BoardLayout layout = drivers::standardBoardLayout();
    for (const auto& reader : failing) o.failingReaders.push_back(drivers::ReaderId{reader});
    for (const auto& reader : faulty) {
        o.faultyReaders.push_back(drivers::ReaderId{reader});
        o.failingReaders.push_back(drivers::ReaderId{reader});
        if (auto index = layout.findReader(drivers::ReaderId{reader}))
            blind.insert(layout.place(layout.placeOf(*index)).name);
    }
    for (auto& [slug, placed] : o.onBoard) placed.uncertain = blind.count(placed.place.name) > 0;
    return o;
}

void HandTable::show() {
    now += 200ms;
    referee.observe(observation(), now);
    auto more = referee.takeNotices();
    notices.insert(notices.end(), more.begin(), more.end());
}

void HandTable::put(const std::string& slug, const std::string& place) {
    inHand.erase(slug);
    on[slug] = place;
    show();
}

void HandTable::lift(const std::string& slug) {
    std::optional<std::string> from;
    if (auto it = on.find(slug); it != on.end()) {
        from = it->second;
        on.erase(it);
    }
    inHand[slug] = from;
    liftedAt[slug] = now;
    show();
}

void HandTable::remove(const std::string& slug) {
    on.erase(slug);
    inHand.erase(slug);
    show();
}

void HandTable::follow() {
    on = expectedBoard(state());
    inHand.clear();
    show();
}

void HandTable::press(int station, drivers::VoteKey key) {
    now += 100ms;
    referee.press(drivers::ButtonEvent{drivers::StationId{station}, key, now});
    auto more = referee.takeNotices();
    notices.insert(notices.end(), more.begin(), more.end());
}

void HandTable::wait(Timestamp dt) {
    now += dt;
    referee.tick(now);
    auto more = referee.takeNotices();
    notices.insert(notices.end(), more.begin(), more.end());
}

namespace {

drivers::VoteKey keyOf(engine::VoteCard card) {
    return card == engine::VoteCard::Yes  ? drivers::VoteKey::Yes
           : card == engine::VoteCard::No ? drivers::VoteKey::No
                                          : drivers::VoteKey::Stomachache;
}

json keepJson(const engine::Action& a) {
    return json{{"player", a.player().index}, {"ambition", engine::ambitionCardName(a.ambition())}};
}

}  // namespace

void HandTable::perform(const engine::Action& a) {
    const auto& roster = state().rules().roster();
    switch (a.kind()) {
        case engine::ActionKind::Place:
        case engine::ActionKind::Move:
            put(roster[a.character()].id, boardPlaceName(a.to()));
            break;
        case engine::ActionKind::Vote:
            press(a.seat().index, keyOf(a.card()));
            break;
        case engine::ActionKind::Keep: {
            auto answer = host({{"keep", keepJson(a)}});
            REQUIRE_MESSAGE(answer.ok, answer.message);
            break;
        }
        case engine::ActionKind::Pass:
            break;
    }
}

drivers::LedMode HandTable::led(const std::string& name) const {
    auto leds = referee.leds(now);
    auto it = leds.find(drivers::LedId{name});
    return it == leds.end() ? drivers::LedMode::Off : it->second;
}

std::vector<Notice> HandTable::take() {
    std::vector<Notice> out(notices.begin() + static_cast<std::ptrdiff_t>(taken_), notices.end());
    taken_ = notices.size();
    return out;
}

engine::CharacterId id(const HandTable& t, const std::string& slug) {
    return t.state().rules().roster().find(slug);
}

std::string refusalCode(const HandTable& t) {
    auto r = t.referee.publicStatus()["refusal"];
    return r.is_null() ? std::string() : r["code"].get<std::string>();
}

void placeClassicToAscent(HandTable& t) {
    const char* floors[] = {"1", "1", "1", "1", "2", "2", "2", "2", "3", "3", "4", "4"};
    const auto& roster = t.state().rules().roster();
    for (int i = 0; i < 12; ++i)
        t.put(roster[engine::CharacterId{static_cast<std::uint8_t>(i)}].id, floors[i]);
    t.follow();
    REQUIRE(t.state().phase() == engine::Phase::Ascent);
}

void toClassicAscent(HandTable& t) {
    t.start(json{{"edition", "classic"}, {"seats", 4}});
    placeClassicToAscent(t);
    REQUIRE(t.state().seatToAct() == engine::Seat{0});
    REQUIRE(t.referee.publicStatus()["guidance"].is_null());
    t.take();
}

// --- SimTable -----------------------------------------------------------------

namespace {

drivers::TagRegistry everyCharacter() {
    drivers::TagRegistry registry;
    std::set<std::string> seen;
    for (const auto* roster : {&engine::classicRoster(), &engine::roster2024()})
        for (const auto& c : roster->characters())
            if (seen.insert(c.id).second)
                registry.enrol(drivers::simulatedTagUid(c.id), drivers::CharacterSlug{c.id});
    return registry;
}

drivers::TagUid uid(const std::string& slug) { return drivers::simulatedTagUid(slug); }

}  // namespace

SimTable::SimTable(store::DecisionLog* store, RefereeOptions options)
    : referee(std::move(options), store), pipeline(drivers::standardBoardLayout(), everyCharacter()) {}

const engine::State& SimTable::state() const {
    REQUIRE(referee.state() != nullptr);
    return *referee.state();
}

HostAnswer SimTable::host(const json& hostRequest) {
    auto answer = referee.host(request(hostRequest), now);
    auto more = referee.takeNotices();
    notices.insert(notices.end(), more.begin(), more.end());
    return answer;
}

void SimTable::feed(Timestamp t) {
    for (const auto& scan : board.advanceTo(t)) pipeline.addScan(scan.reader, scan.result, scan.at);
    for (auto d = referee.nextDeadline(); d && *d < t; d = referee.nextDeadline()) referee.tick(*d);
    referee.observe(pipeline.update(t), t);
    if (auto d = referee.nextDeadline(); d && *d <= t) referee.tick(t);
    auto more = referee.takeNotices();
    notices.insert(notices.end(), more.begin(), more.end());
}

void SimTable::advance(Timestamp dt) {
    const Timestamp end = now + dt;
    while (now < end) {
        now = std::min(end, now + 10ms);
        feed(now);
    }
}

void SimTable::put(const std::string& slug, const std::string& place) {
    REQUIRE(board.put(uid(slug), drivers::PlaceName{place}));
    advance(700ms);
}

void SimTable::lift(const std::string& slug) {
    board.lift(uid(slug));
    advance(3800ms);
}

void SimTable::move(const std::string& slug, const std::string& place) {
    board.lift(uid(slug));
    advance(300ms);
    put(slug, place);
}

void SimTable::press(int station, drivers::VoteKey key) {
    advance(100ms);
    referee.press(drivers::ButtonEvent{drivers::StationId{station}, key, now});
    auto more = referee.takeNotices();
    notices.insert(notices.end(), more.begin(), more.end());
}

void SimTable::follow() {
    const auto expected = expectedBoard(state());
    bool lifted = false;
    const auto& roster = state().rules().roster();
    for (const auto& c : roster.characters()) {
        auto at = board.placeOf(uid(c.id));
        auto want = expected.find(c.id);
        if (at && want == expected.end()) {
            board.lift(uid(c.id));
            lifted = true;
        }
    }
    for (const auto& [slug, place] : expected) {
        auto at = board.placeOf(uid(slug));
        if (!at || at->name != place) REQUIRE(board.put(uid(slug), drivers::PlaceName{place}));
    }
    advance(lifted ? 3800ms : 700ms);
}

void SimTable::perform(const engine::Action& a) {
    const auto& roster = state().rules().roster();
    switch (a.kind()) {
        case engine::ActionKind::Place:
            put(roster[a.character()].id, boardPlaceName(a.to()));
            break;
        case engine::ActionKind::Move:
            move(roster[a.character()].id, boardPlaceName(a.to()));
            break;
        case engine::ActionKind::Vote:
            press(a.seat().index, keyOf(a.card()));
            break;
        case engine::ActionKind::Keep: {
            auto answer = host({{"keep", keepJson(a)}});
            REQUIRE_MESSAGE(answer.ok, answer.message);
            break;
        }
        case engine::ActionKind::Pass:
            break;
    }
}

}  // namespace vivaref::referee::testing
