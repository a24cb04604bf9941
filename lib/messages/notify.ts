/** LISTEN/NOTIFY channel that wakes the message senders when messages are queued (sent on commit). */
export const MESSAGES_CHANNEL = "relay_messages";
