/* links.c: the named interconnects a subsystem is built from (host I/O buses and drive channels),
 * and the reading of a link's name or plain rate (iolab_link_parse). A link moves b bytes in
 * overhead + b / (rated x efficiency) (subsys.h); the figures and where each comes from are also
 * in docs/subsystem-format.md ("Interconnects").
 *
 * Rated rates are the advertised ones in 10^6 bytes/s, after line coding where the link has it
 * (PCIe 1.x/2.x, SATA, SAS and Fibre Channel use 8b/10b, PCIe 3.0 128b/130b).
 *
 * Buses. Efficiency is the share of the rated rate that long DMA transfers keep; overhead is the
 * fixed cost of one transfer (the controller fetching its descriptor and writing its status).
 *  - Conventional PCI and PCI-X: 32-bit 33 MHz PCI is rated 133 MB/s (33.3 MHz x 4 bytes) and
 *    sustains about 100 MB/s in practice: arbitration, the address phase, up to 16 clocks of
 *    target initial latency and bursts cut at cache-line or disconnect boundaries (PCI Local Bus
 *    Specification 2.x): efficiency 0.75, and the same share for the 64-bit and 66 MHz versions,
 *    which keep that protocol. PCI-X keeps bursts long (byte counts in the attribute phase, split
 *    transactions free the bus while a read waits): 0.85, an estimate. Overhead: two short
 *    transactions (descriptor read, status write) of about 0.5 us each at 33 MHz (arbitration,
 *    address and initial latency of up to 16 clocks of 30 ns): 1 us; 0.5 us at 66 and 133 MHz.
 *  - PCI Express: the rates are per direction after line coding (PCI Express Base
 *    Specification 4.0, section 4.2: 2.5 GT/s per lane for 1.x and 5 GT/s for 2.0 with 8b/10b,
 *    250 and 500 MB/s; 8 GT/s for 3.0 and 16 GT/s for 4.0 with 128b/130b, 984.6 and 1969.2
 *    MB/s), times the lanes: pcie3x4 3938 (the link of an NVMe SSD), pcie4x16 31508. Each transaction-layer packet adds about 24 bytes
 *    of framing, sequence number, header and LCRC to its payload (128 bytes on most systems),
 *    and acknowledgement and flow-control DLLPs take a few percent more: efficiency 0.8.
 *    Overhead 1 us: a descriptor read is a memory read round trip of about a microsecond.
 *
 * Channels.
 *  - Parallel SCSI (SPI): data phases run synchronously at the negotiated rate; a command costs
 *    arbitration (2.4 us), selection, message, command, reselection and status phases at
 *    asynchronous speed. A tally of those phases for a read with disconnection on the T10
 *    reflector (S. Finch, "FASTER SCSI", May 1995) gives 15.4 us; a worst case with a 12-byte
 *    command sent asynchronously about 18 us. Overhead: 20 us for Fast SCSI (SCSI-2 era
 *    adapters), 15 us for Ultra, Wide Ultra, Ultra2 and Ultra160 (packetization was optional on
 *    Ultra160), 8 us for Ultra320, whose packetized protocol (mandatory) carries command and
 *    status at full speed, leaving arbitration, selection and reselection. Efficiency 0.95: a
 *    drive that disconnects when its buffer runs dry reconnects within a long transfer (an
 *    estimate). Max devices: the bus's IDs, 16 on a wide bus, 8 on a narrow one (Fast SCSI,
 *    Ultra SCSI). The controller normally holds one of them; the limit does not count it, as
 *    the simulated controller is not a device on the channel.
 *  - Parallel ATA (Ultra DMA): master and slave share the cable and cannot overlap commands
 *    (EXCLUSIVE), 2 drives. Efficiency 0.9 for burst start/termination, pauses and the CRC word
 *    of each burst (an estimate); overhead 5 us: the task file (about 8 register accesses of
 *    120 ns in PIO mode 4 to 600 ns in mode 0), the DMA start and the status read.
 *  - SATA: one drive per link (P2P). Efficiency 0.92: SATA 6Gb/s drives and SSDs top out near
 *    550 MB/s of the 600 (FIS framing, link handshakes X_RDY/R_RDY/R_OK per FIS, ALIGN
 *    primitives); overhead 3 us for the Register, DMA Setup and Set Device Bits FISes of an NCQ
 *    command and their handshakes (an estimate).
 *  - SAS: one drive per link (P2P). Efficiency 0.92: SSP data frames of at most 1024 bytes carry
 *    36 bytes of SOF, header, CRC and EOF, plus ACK/NAK, credit (RRDY) and ALIGN primitives; a
 *    published SAS bandwidth calculation uses 0.917 of the post-8b/10b rate. Overhead 2 us: the
 *    OPEN address frame and its accept, the COMMAND and RESPONSE frames, DONE and CLOSE (an
 *    estimate).
 *  - Fibre Channel arbitrated loop (FC-AL): shared like a bus (SHARED), 127 addresses of which
 *    126 are for devices (one is a fabric port's); as for SCSI the controller is not counted.
 *    Efficiency 0.95: 2048-byte frames carry 36 bytes of SOF, header, CRC and EOF and at least
 *    6 idle words (24 bytes) between frames (2048 / 2108 = 0.97), less R_RDY credits. Overhead: loop arbitration (ARB, OPN,
 *    CLS around the loop) and the FCP_CMND and FCP_RSP frames: 10 us at 1 Gb/s, 6 at 2, 4 at 4
 *    (estimates that scale with the word time). */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "iolab/parse.h"
#include "iolab/subsys.h"

#define US 1000u

static const struct iolab_link_type links[] = {
	/* host I/O buses */
	{"pci32-33", IOLAB_LINK_BUS, 133, 0.75, 1 * US, 0},
	{"pci64-33", IOLAB_LINK_BUS, 266, 0.75, 1 * US, 0},
	{"pci64-66", IOLAB_LINK_BUS, 533, 0.75, US / 2, 0},
	{"pcix-133", IOLAB_LINK_BUS, 1066, 0.85, US / 2, 0},
	{"pcie1x1", IOLAB_LINK_BUS, 250, 0.8, 1 * US, 0},
	{"pcie1x4", IOLAB_LINK_BUS, 1000, 0.8, 1 * US, 0},
	{"pcie1x8", IOLAB_LINK_BUS, 2000, 0.8, 1 * US, 0},
	{"pcie2x4", IOLAB_LINK_BUS, 2000, 0.8, 1 * US, 0},
	{"pcie2x8", IOLAB_LINK_BUS, 4000, 0.8, 1 * US, 0},
	{"pcie3x4", IOLAB_LINK_BUS, 3938, 0.8, 1 * US, 0},
	{"pcie3x8", IOLAB_LINK_BUS, 7877, 0.8, 1 * US, 0},
	{"pcie3x16", IOLAB_LINK_BUS, 15754, 0.8, 1 * US, 0},
	{"pcie4x4", IOLAB_LINK_BUS, 7877, 0.8, 1 * US, 0},
	{"pcie4x8", IOLAB_LINK_BUS, 15754, 0.8, 1 * US, 0},
	{"pcie4x16", IOLAB_LINK_BUS, 31508, 0.8, 1 * US, 0},
	/* parallel SCSI */
	{"fast-scsi", IOLAB_LINK_SHARED, 10, 0.95, 20 * US, 8},
	{"fast-wide-scsi", IOLAB_LINK_SHARED, 20, 0.95, 20 * US, 16},
	{"ultra-scsi", IOLAB_LINK_SHARED, 20, 0.95, 15 * US, 8},
	{"wide-ultra-scsi", IOLAB_LINK_SHARED, 40, 0.95, 15 * US, 16},
	{"ultra2-scsi", IOLAB_LINK_SHARED, 80, 0.95, 15 * US, 16},
	{"ultra160", IOLAB_LINK_SHARED, 160, 0.95, 15 * US, 16},
	{"ultra320", IOLAB_LINK_SHARED, 320, 0.95, 8 * US, 16},
	/* parallel ATA */
	{"ata33", IOLAB_LINK_EXCLUSIVE, 33.3, 0.9, 5 * US, 2},
	{"ata66", IOLAB_LINK_EXCLUSIVE, 66.7, 0.9, 5 * US, 2},
	{"ata100", IOLAB_LINK_EXCLUSIVE, 100, 0.9, 5 * US, 2},
	{"ata133", IOLAB_LINK_EXCLUSIVE, 133, 0.9, 5 * US, 2},
	/* serial point to point */
	{"sata1", IOLAB_LINK_P2P, 150, 0.92, 3 * US, 1},
	{"sata2", IOLAB_LINK_P2P, 300, 0.92, 3 * US, 1},
	{"sata3", IOLAB_LINK_P2P, 600, 0.92, 3 * US, 1},
	{"sas1", IOLAB_LINK_P2P, 300, 0.92, 2 * US, 1},
	{"sas2", IOLAB_LINK_P2P, 600, 0.92, 2 * US, 1},
	{"sas3", IOLAB_LINK_P2P, 1200, 0.92, 2 * US, 1},
	/* Fibre Channel arbitrated loop */
	{"fc1", IOLAB_LINK_SHARED, 100, 0.95, 10 * US, 126},
	{"fc2", IOLAB_LINK_SHARED, 200, 0.95, 6 * US, 126},
	{"fc4", IOLAB_LINK_SHARED, 400, 0.95, 4 * US, 126},
};

#define NLINKS (sizeof(links) / sizeof(links[0]))

/* Plain rates: 1000 bytes/s .. 10^13 bytes/s (10 TB/s). */
#define RATE_MIN 1000.0
#define RATE_MAX 1e13

const struct iolab_link_type *iolab_link_at(unsigned i)
{
	return i < NLINKS ? &links[i] : NULL;
}

/* The names of the buses (bus true) or of the channels, comma-separated, into buf. */
static const char *names(bool bus, char *buf, size_t n)
{
	size_t at = 0;
	buf[0] = 0;
	for (unsigned i = 0; i < NLINKS; i++) {
		if ((links[i].kind == IOLAB_LINK_BUS) != bus)
			continue;
		int w = snprintf(buf + at, n - at, "%s%s", at ? ", " : "", links[i].name);
		if (w < 0 || (size_t)w >= n - at)
			break;
		at += (size_t)w;
	}
	return buf;
}

static int neither(const char *field, const char *text, bool bus, struct iolab_err *err)
{
	char list[400];
	return iolab_errf(err, EINVAL, "%s: '%.100s' is neither %s (%s) nor a rate (40M, 40MB/s, "
			  "1.5G)", field, text, bus ? "an I/O bus" : "a drive channel",
			  names(bus, list, sizeof(list)));
}

/* A PCIe name written with a hyphen between generation and width ("pcie3-x8") as its name in
 * the table ("pcie3x8") into buf; any other text as it is. */
static const char *canonical(const char *text, char *buf, size_t n)
{
	if (strncasecmp(text, "pcie", 4))
		return text;
	size_t gen = strspn(text + 4, "0123456789");
	const char *dash = text + 4 + gen, *width = dash + 2;
	if (!gen || dash[0] != '-' || tolower((unsigned char)dash[1]) != 'x' ||
	    !isdigit((unsigned char)width[0]) || width[strspn(width, "0123456789")] ||
	    strlen(text) >= n)
		return text;
	snprintf(buf, n, "%.*s%s", (int)(dash - text), text, dash + 1);
	return buf;
}

int iolab_link_parse(const char *field, const char *given, bool bus, struct iolab_link_type *out,
		     struct iolab_err *err)
{
	char buf[sizeof(out->name)];
	const char *text = canonical(given, buf, sizeof(buf));
	for (unsigned i = 0; i < NLINKS; i++) {
		if (strcasecmp(text, links[i].name))
			continue;
		if ((links[i].kind == IOLAB_LINK_BUS) != bus)
			return iolab_errf(err, EINVAL, "%s: '%.100s' is %s, not %s", field, given,
					  bus ? "a drive channel" : "a host I/O bus",
					  bus ? "an I/O bus" : "a drive channel");
		*out = links[i];
		return 0;
	}
	char num[64];
	size_t len = strlen(text);
	if (len >= 2 && !strcmp(text + len - 2, "/s"))
		len -= 2;
	if (len == 0 || len >= sizeof(num) || !isdigit((unsigned char)text[0]))
		return neither(field, given, bus, err);
	memcpy(num, text, len);
	num[len] = 0;
	uint64_t v;
	if (iolab_parse_size(field, num, &v, err))
		return neither(field, given, bus, err);
	if ((double)v < RATE_MIN || (double)v > RATE_MAX)
		return iolab_errf(err, EINVAL, "%s: '%.100s' is out of range (a rate of 1000 bytes/s to "
				  "10 TB/s)", field, text);
	if (strlen(text) >= sizeof(out->name))
		return iolab_errf(err, EINVAL, "%s: '%.100s' is too long (at most %zu characters)",
				  field, text, sizeof(out->name) - 1);
	memset(out, 0, sizeof(*out));
	snprintf(out->name, sizeof(out->name), "%s", text);
	out->kind = bus ? IOLAB_LINK_BUS : IOLAB_LINK_SHARED;
	out->rated_mb_s = (double)v / 1e6;
	out->efficiency = 1;
	out->overhead_ns = 0;
	out->max_devices = 0;
	return 0;
}
