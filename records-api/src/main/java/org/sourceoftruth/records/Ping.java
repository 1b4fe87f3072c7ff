package org.sourceoftruth.records;
public class Ping {}
