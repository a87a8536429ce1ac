// A DTMC written for exactpte's reader tests: two reward structures (state and action
// rewards), a periodic closed class, an absorbing class and transient states that reach both.
dtmc

module m
  s : [0..5] init 0;
  [go]   s=0 -> 0.5:(s'=1) + 0.25:(s'=3) + 0.25:(s'=0);
  [go]   s=1 -> 0.5:(s'=2) + 0.5:(s'=5);
  [loop] s=2 -> (s'=3);
  [loop] s=3 -> (s'=4);
  [loop] s=4 -> (s'=2);
  [stay] s=5 -> (s'=5);
endmodule

rewards "visits"
  s=2 : 3;
  s=5 : 1;
  [go] true : 2;
endrewards

rewards "steps"
  [loop] true : 1;
  [stay] true : 1/2;
endrewards

label "cycle" = s>=2 & s<=4;
