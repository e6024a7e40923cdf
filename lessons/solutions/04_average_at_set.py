# In the panel (set 'Qpb', iteration 50) read the row "average strategy", column b (call).
# Not "strategy played": that is the current strategy of iteration 50 alone.
my_call_probability = explorer.trace.average_policy(50)["Qpb"]["b"]
