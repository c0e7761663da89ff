#include "drivers/rfid/spidev_transport.hpp"

#include <fcntl.h>

#include <cerrno>
#include <system_error>

#include <linux/spi/spidev.h>
#include <sys/ioctl.h>

namespace vivaref::drivers {
namespace {

[[noreturn]] void throwFor(const std::string& device, const char* doing) {
    throw std::system_error(errno, std::generic_category(), device + ": " + doing);
}

}  // namespace

SpidevTransport::SpidevTransport(SpidevConfig config, ChipSelect* chipSelect)
    : config_(std::move(config)), chipSelect_(chipSelect) {
    fd_ = FileDescriptor(::open(config_.devicePath.c_str(), O_RDWR | O_CLOEXEC));
    if (!fd_) throwFor(config_.devicePath, "cannot open the SPI device");

    // SPI_MODE_0: clock idles low, data sampled on the rising edge (§8.1.2).
    std::uint32_t mode = SPI_MODE_0;
    if (chipSelect_ && chipSelect_->replacesBusChipSelect()) mode |= SPI_NO_CS;
    const std::uint8_t bitsPerWord = 8;
    if (::ioctl(fd_.get(), SPI_IOC_WR_MODE32, &mode) < 0)
        throwFor(config_.devicePath, "cannot set SPI mode 0");
    if (::ioctl(fd_.get(), SPI_IOC_WR_BITS_PER_WORD, &bitsPerWord) < 0) {
        throwFor(config_.devicePath, "cannot set 8-bit words");
    }
    if (::ioctl(fd_.get(), SPI_IOC_WR_MAX_SPEED_HZ, &config_.clockHz) < 0) {
        throwFor(config_.devicePath, "cannot set the SPI clock");
    }
}

std::error_code SpidevTransport::transfer(std::span<const std::uint8_t> tx, std::span<std::uint8_t> rx,
                                          std::chrono::microseconds settle) {
    if (tx.size() != rx.size()) return std::make_error_code(std::errc::invalid_argument);
    if (settle.count() < 0 || settle.count() > 0xFFFF)
        return std::make_error_code(std::errc::invalid_argument);
    // A pure wait clocks nothing, so the chip need not be selected for it.
    ChipSelect* chipSelect = tx.empty() ? nullptr : chipSelect_;
    if (chipSelect) {
        if (auto ec = chipSelect->select()) return ec;
    }
    spi_ioc_transfer transfer{};
    transfer.tx_buf = reinterpret_cast<std::uintptr_t>(tx.data());
    transfer.rx_buf = reinterpret_cast<std::uintptr_t>(rx.data());
    transfer.len = static_cast<std::uint32_t>(tx.size());
    transfer.speed_hz = config_.clockHz;
    transfer.bits_per_word = 8;
    // The kernel waits this long after the last bit, before the call returns.
    transfer.delay_usecs = static_cast<std::uint16_t>(settle.count());
    std::error_code result;
    if (::ioctl(fd_.get(), SPI_IOC_MESSAGE(1), &transfer) < 0)
        result = std::error_code(errno, std::generic_category());
    if (chipSelect) {
        if (auto ec = chipSelect->deselect(); ec && !result) result = ec;
    }
    return result;
}

}  // namespace vivaref::drivers
