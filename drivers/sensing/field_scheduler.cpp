#include "drivers/sensing/field_scheduler.hpp"

#include <algorithm>
#include <optional>
#include <stdexcept>

namespace vivaref::drivers {

FieldScheduler::FieldScheduler(FieldCoupling coupling, FieldSchedulerConfig config)
    : coupling_(std::move(coupling)),
      config_(config),
      groups_(fieldGroups(coupling_)),
      readers_(coupling_.readerCount()) {
    config_.backoff.validate();
    if (readers_.empty()) throw std::invalid_argument("field scheduler: no reader to schedule");
    if (config_.powerUpTime.count() < 0)
        throw std::invalid_argument("field scheduler: negative power-up time");
    for (const auto& group : groups_) order_.insert(order_.end(), group.begin(), group.end());
    for (std::size_t rank = 0; rank < order_.size(); ++rank) readers_[order_[rank]].rank = rank;
}

std::size_t FieldScheduler::fieldsOn() const {
    return static_cast<std::size_t>(
        std::count_if(readers_.begin(), readers_.end(), [](const ReaderState& r) { return r.on; }));
}

std::int64_t FieldScheduler::target(const ReaderState& r) const { return std::max(r.doneIn + 1, cycle_); }

bool FieldScheduler::waitingForField(const ReaderState& r, Microseconds now) const {
    if (r.on || r.retryAt > now || r.doneIn > cycle_) return false;
    // Done with the cycle under way: its turn in the next one comes no sooner
    // than most of a cycle after this one, so that each reader is read about
    // once a cycle, not twice in a row and then not for two cycles.
    return r.doneIn < cycle_ || now >= r.doneAt + cycleLength_ * 3 / 4;
}

bool FieldScheduler::turnWaitsForExtra(const ReaderState& r, Microseconds now) const {
    return r.extraAt && *r.extraAt > now && *r.extraAt - now <= cycleLength_;
}

bool FieldScheduler::wouldHoldUpExtra(const ReaderState& self, const ReaderState& other,
                                      Microseconds now) const {
    // The extra wants the field from extraAt (a power-up before its scan);
    // this turn's field stays on about as long as it did last time (its
    // power-up, its wait for the bus, its scan).
    return other.extraAt && !other.on && other.retryAt <= *other.extraAt &&
           now + std::max(config_.powerUpTime + self.scanLength, self.onLength) > *other.extraAt;
}

bool FieldScheduler::mayGoOn(ReaderIndex reader, Microseconds now) const {
    const ReaderState& self = readers_[reader];
    const bool extra = extraDue(self, now);
    for (ReaderIndex n : coupling_.neighboursOf(reader)) {
        const ReaderState& other = readers_[n];
        if (other.on) return false;
        if (extra) continue;                     // an extra scan only waits for fields actually on
        if (extraDue(other, now)) return false;  // and no turn takes the field it waits for
        if (wouldHoldUpExtra(self, other, now)) return false;  // nor holds it when it is due
        // A reader still owed an earlier cycle goes first: powering up for the
        // next cycle must not hold back the one under way.
        if (waitingForField(other, now) && target(other) < target(self)) return false;
    }
    return true;
}

FieldStep FieldScheduler::next(Microseconds now) {
    closeCycles(now);
    auto byPriority = [&](ReaderIndex a, ReaderIndex b) {
        const bool ea = wantsExtra(readers_[a], now), eb = wantsExtra(readers_[b], now);
        if (ea != eb) return ea;  // extra scans first: a change is being confirmed
        const std::int64_t ta = target(readers_[a]), tb = target(readers_[b]);
        return ta != tb ? ta < tb : readers_[a].rank < readers_[b].rank;
    };

    // Fields first: switching one on is a single register write, and its
    // power-up then runs while the bus inventories the others.
    if (config_.maxFieldsOn == 0 || fieldsOn() < config_.maxFieldsOn) {
        std::vector<ReaderIndex> candidates;
        for (ReaderIndex r : order_) {
            const ReaderState& s = readers_[r];
            if (extraDue(s, now) || (waitingForField(s, now) && !turnWaitsForExtra(s, now)))
                candidates.push_back(r);
        }
        std::stable_sort(candidates.begin(), candidates.end(), byPriority);
        for (ReaderIndex r : candidates) {
            if (!mayGoOn(r, now)) continue;
            ReaderState& s = readers_[r];
            // Its own turn is due: the extra scan is that turn.
            s.extra = extraDue(s, now) && !waitingForField(s, now);
            s.on = true;
            s.onAt = now;
            return {FieldStep::Kind::FieldOn, r, now};
        }
    }

    // A reader whose field holds up an extra scan is inventoried first, so
    // that its field goes off and the extra's can come on.
    auto holdsUpExtra = [&](ReaderIndex r) {
        for (ReaderIndex n : coupling_.neighboursOf(r))
            if (extraDue(readers_[n], now)) return true;
        return false;
    };
    auto scanFirst = [&](ReaderIndex a, ReaderIndex b) {
        const bool ha = holdsUpExtra(a), hb = holdsUpExtra(b);
        return ha != hb ? ha : byPriority(a, b);
    };
    std::optional<ReaderIndex> ready;
    auto until = Microseconds::max();
    for (ReaderIndex r = 0; r < readers_.size(); ++r) {
        const ReaderState& s = readers_[r];
        if (s.on && !s.scanning) {
            const Microseconds poweredAt = s.onAt + config_.powerUpTime;
            if (poweredAt <= now) {
                if (!ready || scanFirst(r, *ready)) ready = r;
            } else {
                until = std::min(until, poweredAt);
            }
        }
        if (!s.on && s.retryAt > now) until = std::min(until, s.retryAt);
        if (!s.on && s.doneIn == cycle_ && s.doneAt + cycleLength_ * 3 / 4 > now)
            until = std::min(until, s.doneAt + cycleLength_ * 3 / 4);
        if (!s.on && s.extraAt && *s.extraAt > now) until = std::min(until, std::max(*s.extraAt, s.retryAt));
    }
    if (ready) {
        readers_[*ready].scanning = true;
        readers_[*ready].scanFrom = now;
        return {FieldStep::Kind::Scan, *ready, now};
    }
    // Only while a Scan is out (the caller has not reported it) can nothing be due.
    if (until == Microseconds::max()) until = now + config_.powerUpTime;
    return {FieldStep::Kind::Wait, 0, until};
}

void FieldScheduler::scanSoon(ReaderIndex reader, Microseconds at) {
    // Its field goes on a power-up ahead, so that the scan itself comes at `at`.
    readers_[reader].extraAt = at - config_.powerUpTime;
}

void FieldScheduler::scanned(ReaderIndex reader, bool ok, Microseconds now) {
    ReaderState& s = readers_[reader];
    if (s.scanning) s.scanLength = now - s.scanFrom;
    s.onLength = now - s.onAt;
    // An extra scan counts for no cycle; a turn at or after the extra's time serves as the extra too.
    if (!s.extra) {
        s.doneIn = target(s);
        s.doneAt = now;
    }
    if (s.extra || (s.extraAt && *s.extraAt <= s.onAt)) s.extraAt.reset();
    s.extra = false;
    s.on = false;
    s.scanning = false;
    if (ok) {
        s.failures = 0;
        s.retryAt = Microseconds{0};
    } else {
        ++s.failures;
        if (s.failures >= config_.backoff.failuresBeforeBackoff)
            s.retryAt = now + Microseconds(config_.backoff.delayAfter(s.failures));
    }
    closeCycles(now);
}

void FieldScheduler::closeCycles(Microseconds now) {
    for (;;) {
        bool anyDone = false, anyOwed = false;
        for (const ReaderState& s : readers_) {
            if (s.doneIn >= cycle_) anyDone = true;
            // A reader backing off does not hold the cycle up; one whose field is on does.
            else if (s.on || s.retryAt <= now)
                anyOwed = true;
        }
        if (anyOwed || !anyDone) return;
        ++cycle_;
        cycleLength_ = now - lastCycleEnd_;
        lastCycleEnd_ = now;
    }
}

}  // namespace vivaref::drivers
