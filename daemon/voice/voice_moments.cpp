#include "daemon/voice/voice_moments.hpp"

namespace vivaref::voice {

std::string_view voiceMomentName(VoiceMoment moment) {
    switch (moment) {
        case VoiceMoment::Refusal:
            return "refusal";
        case VoiceMoment::Election:
            return "election";
        case VoiceMoment::Round:
            return "round";
        case VoiceMoment::Winner:
            return "winner";
        case VoiceMoment::Bot:
            return "bot";
        case VoiceMoment::Reader:
            return "reader";
        case VoiceMoment::Teach:
            return "teach";
    }
    return "?";
}

std::optional<VoiceMoment> voiceMomentNamed(std::string_view name) {
    for (auto m : kAllMoments)
        if (voiceMomentName(m) == name) return m;
    return std::nullopt;
}

VoiceMoments VoiceMoments::all() {
    VoiceMoments out(0);
    for (auto m : kAllMoments) out.set(m, true);
    return out;
}

std::vector<std::string> VoiceMoments::names() const {
    std::vector<std::string> out;
    for (auto m : kAllMoments)
        if (has(m)) out.emplace_back(voiceMomentName(m));
    return out;
}

std::string VoiceMoments::known() {
    std::string out;
    for (auto m : kAllMoments) out += (out.empty() ? "" : ", ") + std::string(voiceMomentName(m));
    return out;
}

std::optional<VoiceMoments> VoiceMoments::parse(std::string_view text, std::string& why) {
    VoiceMoments out(0);
    std::vector<std::string> words;
    std::string word;
    for (char c : text) {
        if (c == ',' || c == ' ' || c == '\t') {
            if (!word.empty()) words.push_back(std::move(word));
            word.clear();
        } else {
            word += c;
        }
    }
    if (!word.empty()) words.push_back(std::move(word));
    if (words.size() == 1 && words[0] == "all") return all();
    if (words.size() == 1 && words[0] == "none") return none();
    if (words.empty()) {
        why = "no moment named: name some of " + known() + ", or all, or none";
        return std::nullopt;
    }
    for (const auto& w : words) {
        const auto m = voiceMomentNamed(w);
        if (!m) {
            why = "'" + w + "' is not a moment the referee speaks at: " + known() + " (or all, or none)";
            return std::nullopt;
        }
        out.set(*m, true);
    }
    return out;
}

}  // namespace vivaref::voice
