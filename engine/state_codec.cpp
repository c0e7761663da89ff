// State snapshots as text: every field, in one order, as integers. One
// visitor walks the fields for both directions so they cannot drift apart.
#include <algorithm>
#include <charconv>
#include <string>

#include "engine/state.hpp"

namespace vivaref::engine {
namespace {

class TextWriter {
public:
    static constexpr bool kReading = false;
    void integer(long long& v, long long, long long) {
        char buffer[24];
        auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer - 1, v);
        (void)ec;  // 24 characters hold any long long
        *end++ = ' ';
        out_.append(buffer, end);
    }
    TextWriter() { out_.reserve(1024); }
    std::string take() { return std::move(out_); }
    bool ok() const { return true; }

private:
    std::string out_;
};

class TextReader {
public:
    static constexpr bool kReading = true;
    explicit TextReader(std::string_view in) : in_(in) {}
    void integer(long long& v, long long lo, long long hi) {
        if (!ok_) return;
        while (!in_.empty() && in_.front() == ' ') in_.remove_prefix(1);
        auto [end, ec] = std::from_chars(in_.data(), in_.data() + in_.size(), v);
        if (ec != std::errc{} || v < lo || v > hi) {
            ok_ = false;
            v = lo;
            in_ = {};
            return;
        }
        in_.remove_prefix(static_cast<std::size_t>(end - in_.data()));
    }
    bool ok() const { return ok_; }
    bool atEnd() {
        while (!in_.empty() && (in_.front() == ' ' || in_.front() == '\n')) in_.remove_prefix(1);
        return in_.empty();
    }

private:
    std::string_view in_;
    bool ok_ = true;
};

template <typename A, typename T>
void intField(A& a, T& v, long long lo, long long hi) {
    long long x = static_cast<long long>(v);
    a.integer(x, lo, hi);
    v = static_cast<T>(x);
}

template <typename A>
void io(A& a, int& v) {
    intField(a, v, -1000000, 1000000);
}
template <typename A>
void io(A& a, std::uint8_t& v) {
    intField(a, v, 0, 255);
}
template <typename A>
void io(A& a, bool& v) {
    intField(a, v, 0, 1);
}
template <typename A>
void io(A& a, Seat& v) {
    io(a, v.index);
}
template <typename A>
void io(A& a, PlayerId& v) {
    io(a, v.index);
}
template <typename A>
void io(A& a, CharacterId& v) {
    io(a, v.index);
}
template <typename A>
void io(A& a, Place& v) {
    intField(a, v, 0, static_cast<int>(Place::Unknown));
}
template <typename A>
void io(A& a, Phase& v) {
    intField(a, v, 0, static_cast<int>(Phase::GameOver));
}
template <typename A>
void io(A& a, VoteCard& v) {
    intField(a, v, 0, static_cast<int>(VoteCard::Unknown));
}
template <typename A>
void io(A& a, AmbitionCard& v) {
    intField(a, v, 0, static_cast<int>(AmbitionCard::Unknown));
}
template <typename A>
void io(A& a, ElectionOutcome& v) {
    intField(a, v, 0, static_cast<int>(ElectionOutcome::Cancelled));
}

template <typename A, typename T, std::size_t N>
void io(A& a, std::array<T, N>& v) {
    for (auto& x : v) io(a, x);
}

template <typename A, typename T>
void io(A& a, std::optional<T>& v) {
    bool has = v.has_value();
    io(a, has);
    if (A::kReading) v = has ? std::optional<T>(T{}) : std::nullopt;
    if (has) io(a, *v);
}

template <typename A, typename T>
void io(A& a, std::vector<T>& v, long long maxSize) {
    long long n = static_cast<long long>(v.size());
    a.integer(n, 0, maxSize);
    if (A::kReading) v.assign(static_cast<std::size_t>(n), T{});
    for (auto& x : v) io(a, x);
}

template <typename A, typename T, int N>
void io(A& a, BoundedVector<T, N>& v, long long maxSize) {
    long long n = static_cast<long long>(v.size());
    a.integer(n, 0, std::min<long long>(maxSize, N));
    if (A::kReading) v.assign(static_cast<std::size_t>(n), T{});
    for (auto& x : v) io(a, x);
}

template <typename A>
void io(A& a, FavouritesCard& v) {
    io(a, v.characters);
    io(a, v.banished);
}
template <typename A>
void io(A& a, Hand& v) {
    io(a, v.yes);
    io(a, v.no);
    io(a, v.stomachache);
}
template <typename A>
void io(A& a, Reveal& v) {
    io(a, v.candidate);
    io(a, v.crown);
    io(a, v.votes);
    io(a, v.emissaryVote);
    io(a, v.emissaryDrew);
    io(a, v.outcome);
    io(a, v.sentTo);
}
template <typename A>
void io(A& a, ScoreLineKind& v) {
    intField(a, v, 0, static_cast<int>(ScoreLineKind::TeamPawn));
}
template <typename A>
void io(A& a, ScoreLine& v) {
    io(a, v.kind);
    io(a, v.character);
    io(a, v.place);
    io(a, v.ambition);
    io(a, v.met);
    io(a, v.points);
}
template <typename A>
void io(A& a, ScoreSheet& v) {
    io(a, v.lines, 16);
    io(a, v.total);
}
template <typename A>
void io(A& a, CoronationScore& v) {
    io(a, v.king);
    io(a, v.crown);
    io(a, v.jesterKing);
    io(a, v.players, kMaxPlayers);
    io(a, v.emissary);
}
template <typename A>
void io(A& a, RoundResult& v) {
    io(a, v.round);
    io(a, v.kings, 2);
    io(a, v.crown);
    io(a, v.scores, kMaxPlayers);
    io(a, v.emissaryScore);
    io(a, v.compensation, kMaxPlayers);
    io(a, v.coronations, 2);
}

}  // namespace

class StateCodec {
public:
    template <typename A>
    static void fields(A& a, State& s) {
        io(a, s.characters_);
        io(a, s.phase_);
        io(a, s.round_);
        io(a, s.first_);
        io(a, s.toAct_);
        io(a, s.placed_);
        io(a, s.passesInRow_);
        io(a, s.place_);
        io(a, s.count_);
        io(a, s.favourites_);
        io(a, s.ambitionDealt_);
        io(a, s.ambitionKept_);
        io(a, s.hands_);
        io(a, s.totals_);
        io(a, s.favouritesRevealed_);
        io(a, s.emissaryFavourites_);
        io(a, s.emissaryPile_);
        io(a, s.emissaryPileSize_);
        io(a, s.emissaryTotal_);
        io(a, s.candidate_);
        io(a, s.crown_);
        io(a, s.votes_);
        io(a, s.votesIn_);
        io(a, s.rejections_);
        io(a, s.firstKing_);
        io(a, s.firstKingMover_);
        io(a, s.lastReveal_);
        io(a, s.current_);
        io(a, s.history_, kMaxRounds);
    }

    static void deriveMasks(State& s) {
        s.at_.fill(0);
        for (int c = 0; c < s.characters_; ++c)
            s.at_[static_cast<int>(s.place_[c])] |= static_cast<std::uint16_t>(1u << c);
    }

    // What a reader must hold for the state to be safe to use.
    static bool consistent(const State& s) {
        if (s.characters_ != s.rules_->roster().size()) return false;
        std::array<std::uint8_t, kPlaceCount> count{};
        for (int c = 0; c < s.characters_; ++c) {
            if (s.place_[c] >= Place::Unknown) return false;
            ++count[static_cast<int>(s.place_[c])];
        }
        if (count != s.count_ || s.emissaryPileSize_ > s.emissaryPile_.size()) return false;
        if (s.current_.scores.size() != static_cast<std::size_t>(s.rules_->players())) return false;
        const int seats = s.rules_->seats();
        return s.toAct_.index < seats && s.first_.index < seats && s.round_ >= 1 &&
               s.round_ <= s.rules_->rounds();
    }
};

std::string State::serialize() const {
    TextWriter w;
    StateCodec::fields(w, const_cast<State&>(*this));  // the writer only reads
    return w.take();
}

std::optional<State> State::deserialize(std::shared_ptr<const Rules> rules, std::string_view text) {
    State s(std::move(rules));
    TextReader r(text);
    StateCodec::fields(r, s);
    if (!r.ok() || !r.atEnd() || !StateCodec::consistent(s)) return std::nullopt;
    StateCodec::deriveMasks(s);
    return s;
}

}  // namespace vivaref::engine
