// The voice's queue, as both implementations keep it: short, oldest line
// dropped when full, a newer line of a key replacing the waiting one,
// cancel(key) withdrawing stale lines.
#include <doctest/doctest.h>

#include "drivers/audio/speech_queue.hpp"

namespace vivaref::drivers {

namespace {

using std::chrono::microseconds;

SpeechLine queueLine(std::string key, std::string text) {
    return SpeechLine{{std::move(key)}, std::move(text), {"en"}};
}

std::vector<std::string> waitingTexts(const SpeechQueue& queue) {
    std::vector<std::string> texts;
    for (const QueuedSpeech& queued : queue.waiting()) {
        texts.push_back(queued.line.text);
    }
    return texts;
}

}  // namespace

TEST_CASE("a full queue drops its oldest line, and says so") {
    SpeechQueue queue(3);
    std::vector<SpeechReport> ended;
    SpeechId first = queue.push(queueLine("", "one"), microseconds(10), ended);
    queue.push(queueLine("", "two"), microseconds(20), ended);
    queue.push(queueLine("", "three"), microseconds(30), ended);
    CHECK(ended.empty());
    queue.push(queueLine("", "four"), microseconds(40), ended);
    CHECK(waitingTexts(queue) == std::vector<std::string>{"two", "three", "four"});
    REQUIRE(ended.size() == 1);
    CHECK(ended[0].id == first);
    CHECK(ended[0].fate == SpeechFate::Dropped);
    CHECK(ended[0].queuedAt == microseconds(10));
    CHECK(ended[0].endedAt == microseconds(40));
    CHECK_FALSE(ended[0].firstSampleAt);
}

TEST_CASE("a newer line of a key replaces the waiting one, in its own place") {
    SpeechQueue queue(3);
    std::vector<SpeechReport> ended;
    queue.push(queueLine("refusal", "put the King back"), microseconds(1), ended);
    queue.push(queueLine("election", "vote now"), microseconds(2), ended);
    queue.push(queueLine("refusal", "put the Queen back"), microseconds(3), ended);
    CHECK(waitingTexts(queue) == std::vector<std::string>{"vote now", "put the Queen back"});
    REQUIRE(ended.size() == 1);
    CHECK(ended[0].line.text == "put the King back");
    CHECK(ended[0].fate == SpeechFate::Replaced);
}

TEST_CASE("lines without a key never replace one another") {
    SpeechQueue queue(3);
    std::vector<SpeechReport> ended;
    queue.push(queueLine("", "a"), microseconds(1), ended);
    queue.push(queueLine("", "b"), microseconds(2), ended);
    CHECK(queue.size() == 2);
    CHECK_FALSE(queue.cancel(SpeechKey{""}, microseconds(3), ended));
    CHECK(queue.size() == 2);
    CHECK(ended.empty());
}

TEST_CASE("cancel withdraws the stale lines of a key and keeps the others in order") {
    SpeechQueue queue(3);
    std::vector<SpeechReport> ended;
    queue.push(queueLine("round", "round over"), microseconds(1), ended);
    queue.push(queueLine("refusal", "put the Jester back"), microseconds(2), ended);
    queue.push(queueLine("winner", "Anna wins"), microseconds(3), ended);
    CHECK(queue.cancel(SpeechKey{"refusal"}, microseconds(4), ended));
    CHECK(waitingTexts(queue) == std::vector<std::string>{"round over", "Anna wins"});
    REQUIRE(ended.size() == 1);
    CHECK(ended[0].fate == SpeechFate::Cancelled);
    CHECK_FALSE(queue.cancel(SpeechKey{"refusal"}, microseconds(5), ended));
    CHECK(queue.pop()->line.text == "round over");
    CHECK(queue.pop()->line.text == "Anna wins");
    CHECK_FALSE(queue.pop());
}

TEST_CASE("ids follow the order lines were queued") {
    SpeechQueue queue(1);
    std::vector<SpeechReport> ended;
    SpeechId a = queue.push(queueLine("", "a"), microseconds(1), ended);
    SpeechId skipped = queue.takeId();
    SpeechId b = queue.push(queueLine("", "b"), microseconds(2), ended);
    CHECK(a < skipped);
    CHECK(skipped < b);
    CHECK(queue.size() == 1);
}

}  // namespace vivaref::drivers
