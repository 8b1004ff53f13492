"""(Filled by its part of issue 10.)"""

urlpatterns: list = []
SECTIONS: list = []
