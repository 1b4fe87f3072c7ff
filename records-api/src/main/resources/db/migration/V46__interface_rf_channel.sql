-- Interfaces: the wireless channel (NetBox's WirelessChannelChoices value, e.g. 5g-36-5180-20);
-- its frequency and width fill rf_channel_frequency / rf_channel_width when they are not given.
alter table dcim_interface add column rf_channel varchar(50);
