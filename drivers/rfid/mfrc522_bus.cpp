#include "drivers/rfid/mfrc522_bus.hpp"

#include <algorithm>
#include <cassert>

namespace vivaref::drivers::mfrc522 {

std::error_code Mfrc522Bus::transfer(std::size_t size, std::chrono::microseconds settle) {
    ++counters_.transfers;
    counters_.bytes += size;
    counters_.waited += settle;
    return spi_.transfer(std::span<const std::uint8_t>(tx_.data(), size),
                         std::span<std::uint8_t>(rx_.data(), size), settle);
}

std::error_code Mfrc522Bus::write(Register r, std::uint8_t value, std::chrono::microseconds settle) {
    tx_[0] = writeAddress(r);
    tx_[1] = value;
    return transfer(2, settle);
}

std::error_code Mfrc522Bus::pause(std::chrono::microseconds duration) {
    ++counters_.waits;
    counters_.waited += duration;
    return spi_.transfer({}, {}, duration);
}

std::error_code Mfrc522Bus::writeFifo(std::span<const std::uint8_t> data) {
    assert(data.size() <= kFifoSize);
    tx_[0] = writeAddress(Register::FifoData);
    std::copy(data.begin(), data.end(), tx_.begin() + 1);
    return transfer(data.size() + 1);
}

std::error_code Mfrc522Bus::read(Register r, std::uint8_t& value) {
    const Register regs[] = {r};
    return readMany(regs, std::span<std::uint8_t>(&value, 1));
}

std::error_code Mfrc522Bus::readMany(std::span<const Register> regs, std::span<std::uint8_t> values) {
    assert(regs.size() == values.size() && regs.size() <= kFifoSize);
    // The chip answers each address byte during the next byte; a final 0x00 clocks out the last value.
    for (std::size_t i = 0; i < regs.size(); ++i) tx_[i] = readAddress(regs[i]);
    tx_[regs.size()] = 0x00;
    if (auto ec = transfer(regs.size() + 1)) return ec;
    std::copy_n(rx_.begin() + 1, regs.size(), values.begin());
    return {};
}

std::error_code Mfrc522Bus::readFifo(std::span<std::uint8_t> out) {
    assert(out.size() <= kFifoSize);
    std::fill_n(tx_.begin(), out.size(), readAddress(Register::FifoData));
    tx_[out.size()] = 0x00;
    if (auto ec = transfer(out.size() + 1)) return ec;
    std::copy_n(rx_.begin() + 1, out.size(), out.begin());
    return {};
}

}  // namespace vivaref::drivers::mfrc522
