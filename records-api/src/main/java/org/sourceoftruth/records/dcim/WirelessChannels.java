package org.sourceoftruth.records.dcim;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.sourceoftruth.records.model.ChoiceSet;

/**
 * NetBox 4.4's wireless channels (wireless/choices.py WirelessChannelChoices): each value names
 * the band, channel, centre frequency and width ({@code 5g-36-5180-20}); NetBox reads the
 * frequency and width from it (wireless.utils.get_channel_attr) to fill and check an interface's
 * rf_channel_frequency and rf_channel_width.
 */
public final class WirelessChannels {
    private WirelessChannels() {}

    /** Per band, in NetBox's order: "channel-frequency-width" entries. */
    private static final List<Map.Entry<String, String>> BANDS = List.of(
            Map.entry(
                    "2.4g",
                    "1-2412-22 2-2417-22 3-2422-22 4-2427-22 5-2432-22 6-2437-22 7-2442-22 8-2447-22 9-2452-22"
                            + " 10-2457-22 11-2462-22 12-2467-22 13-2472-22"),
            Map.entry(
                    "5g",
                    "32-5160-20 34-5170-40 36-5180-20 38-5190-40 40-5200-20 42-5210-80 44-5220-20 46-5230-40"
                            + " 48-5240-20 50-5250-160 52-5260-20 54-5270-40 56-5280-20 58-5290-80 60-5300-20 62-5310-40"
                            + " 64-5320-20 100-5500-20 102-5510-40 104-5520-20 106-5530-80 108-5540-20 110-5550-40"
                            + " 112-5560-20 114-5570-160 116-5580-20 118-5590-40 120-5600-20 122-5610-80 124-5620-20"
                            + " 126-5630-40 128-5640-20 132-5660-20 134-5670-40 136-5680-20 138-5690-80 140-5700-20"
                            + " 142-5710-40 144-5720-20 149-5745-20 151-5755-40 153-5765-20 155-5775-80 157-5785-20"
                            + " 159-5795-40 161-5805-20 163-5815-160 165-5825-20 167-5835-40 169-5845-20 171-5855-80"
                            + " 173-5865-20 175-5875-40 177-5885-20"),
            Map.entry(
                    "6g",
                    "1-5955-20 3-5965-40 5-5975-20 7-5985-80 9-5995-20 11-6005-40 13-6015-20 15-6025-160"
                            + " 17-6035-20 19-6045-40 21-6055-20 23-6065-80 25-6075-20 27-6085-40 29-6095-20 31-6105-320"
                            + " 33-6115-20 35-6125-40 37-6135-20 39-6145-80 41-6155-20 43-6165-40 45-6175-20 47-6185-160"
                            + " 49-6195-20 51-6205-40 53-6215-20 55-6225-80 57-6235-20 59-6245-40 61-6255-20 65-6275-20"
                            + " 67-6285-40 69-6295-20 71-6305-80 73-6315-20 75-6325-40 77-6335-20 79-6345-160 81-6355-20"
                            + " 83-6365-40 85-6375-20 87-6385-80 89-6395-20 91-6405-40 93-6415-20 95-6425-320 97-6435-20"
                            + " 99-6445-40 101-6455-20 103-6465-80 105-6475-20 107-6485-40 109-6495-20 111-6505-160"
                            + " 113-6515-20 115-6525-40 117-6535-20 119-6545-80 121-6555-20 123-6565-40 125-6575-20"
                            + " 129-6595-20 131-6605-40 133-6615-20 135-6625-80 137-6635-20 139-6645-40 141-6655-20"
                            + " 143-6665-160 145-6675-20 147-6685-40 149-6695-20 151-6705-80 153-6715-20 155-6725-40"
                            + " 157-6735-20 159-6745-320 161-6755-20 163-6765-40 165-6775-20 167-6785-80 169-6795-20"
                            + " 171-6805-40 173-6815-20 175-6825-160 177-6835-20 179-6845-40 181-6855-20 183-6865-80"
                            + " 185-6875-20 187-6885-40 189-6895-20 193-6915-20 195-6925-40 197-6935-20 199-6945-80"
                            + " 201-6955-20 203-6965-40 205-6975-20 207-6985-160 209-6995-20 211-7005-40 213-7015-20"
                            + " 215-7025-80 217-7035-20 219-7045-40 221-7055-20 225-7075-20 227-7085-40 229-7095-20"
                            + " 233-7115-20"),
            Map.entry(
                    "60g",
                    "1-58320-2160 2-60480-2160 3-62640-2160 4-64800-2160 5-66960-2160 6-69120-2160 9-59400-4320"
                            + " 10-61560-4320 11-63720-4320 12-65880-4320 13-68040-4320 17-60480-6480 18-62640-6480"
                            + " 19-64800-6480 20-66960-6480 25-61560-6480 26-63720-6480 27-65880-6480"));

    static ChoiceSet choices() {
        List<String> pairs = new ArrayList<>();
        for (Map.Entry<String, String> band : BANDS) {
            for (String channel : band.getValue().split(" ")) {
                String[] p = channel.split("-");
                pairs.add(band.getKey() + "-" + channel);
                pairs.add(label(band.getKey(), p[0], p[1], p[2]));
            }
        }
        return ChoiceSet.of(pairs.toArray(String[]::new));
    }

    private static String label(String band, String channel, String frequency, String width) {
        return switch (band) {
            case "2.4g" -> channel + " (" + frequency + " MHz)";
            case "60g" -> channel + " (" + ghz(frequency) + "/" + ghz(width) + " GHz)";
            default -> channel + " (" + frequency + "/" + width + " MHz)";
        };
    }

    private static String ghz(String mhz) {
        return new BigDecimal(mhz)
                .movePointLeft(3)
                .setScale(2, java.math.RoundingMode.UNNECESSARY)
                .toPlainString();
    }

    /** The channel's centre frequency in MHz, as NetBox's get_channel_attr(channel, 'frequency'). */
    public static BigDecimal frequency(String channel) {
        return new BigDecimal(channel.split("-")[2]);
    }

    /** The channel's width in MHz, as NetBox's get_channel_attr(channel, 'width'). */
    public static BigDecimal width(String channel) {
        return new BigDecimal(channel.split("-")[3]);
    }
}
