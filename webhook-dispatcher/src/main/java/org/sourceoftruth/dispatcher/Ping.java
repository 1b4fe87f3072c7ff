package org.sourceoftruth.dispatcher;
public class Ping {}
